"""Portrait uploads: what is accepted, and the copy that is stored.

Uploads are checked with Pillow (not by their name or declared type), then re-encoded at a
small size: the stored file carries no camera metadata (GPS from a phone photo) and a sheet
page on a phone does not pull a 2 MB image.
"""

from __future__ import annotations

import io

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile, File
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_BYTES = 2 * 1024 * 1024
MAX_PIXELS = 6000 * 6000
STORED_SIZE = (512, 512)
FORMATS = {
    "PNG": ("png", "image/png"),
    "JPEG": ("jpg", "image/jpeg"),
    "WEBP": ("webp", "image/webp"),
}
CONTENT_TYPES = dict(FORMATS.values())


def validate_portrait(upload: File) -> None:
    """Accept PNG, JPEG or WebP up to 2 MB whose header Pillow can read."""
    if upload.size is not None and upload.size > MAX_BYTES:
        raise ValidationError(_("Portret może mieć najwyżej 2 MB."), code="too_big")
    try:
        upload.seek(0)
        with Image.open(upload) as image:
            image_format, (width, height) = image.format, image.size
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError):
        raise ValidationError(_("To nie jest obraz, który umiemy odczytać."), code="bad") from None
    finally:
        upload.seek(0)
    if image_format not in FORMATS:
        raise ValidationError(_("Portret musi być plikiem PNG, JPEG albo WebP."), code="format")
    if width * height > MAX_PIXELS:
        raise ValidationError(_("Obraz ma za dużo pikseli."), code="pixels")


def shrink_portrait(upload: File) -> ContentFile[bytes]:
    """The stored copy: at most 512×512, same format, orientation applied, metadata dropped."""
    upload.seek(0)
    with Image.open(upload) as image:
        image_format = image.format or "PNG"
        picture = ImageOps.exif_transpose(image)
        picture.thumbnail(STORED_SIZE)
        if image_format == "JPEG" and picture.mode not in ("RGB", "L"):
            picture = picture.convert("RGB")
        buffer = io.BytesIO()
        picture.save(buffer, format=image_format)
    extension = FORMATS.get(image_format, ("png", ""))[0]
    return ContentFile(buffer.getvalue(), name=f"portrait.{extension}")


def content_type_for(name: str) -> str:
    extension = name.rsplit(".", 1)[-1].lower()
    return CONTENT_TYPES.get(extension, "application/octet-stream")
