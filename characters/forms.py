"""Forms: what a person may type, checked field by field; sheets end in `clean_sheet`.

The sheet editor's inputs are built from the campaign's ruleset (attributes and skills with
their Polish labels and ranges) and from the sections it declares (`sheet_sections`: equipment
lists as rows, single sections as one fieldset), so a new ruleset or table setting changes the
form without editing it.
"""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Iterable, Mapping
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models
from django.http import QueryDict
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters import account
from characters.models import MAIL_CHOICES, Campaign, Character, CreatureTemplate, Membership
from characters.portraits import validate_portrait
from characters.sheets import (
    MAX_ITEMS,
    MAX_NAME,
    MAX_SKILL_NAME,
    clean_sheet,
    custom_skills,
    stat_groups,
)
from characters.transfer import MAX_IMPORT_BYTES, read_json
from combat.rules.base import Ruleset, StatSpec
from combat.rules.registry import get_ruleset, ruleset_choices
from combat.rules.schema import ItemField, SheetSection
from combat.terms import rules_gettext_lazy

# ---- the account ------------------------------------------------------------------------------


def _address_field() -> forms.EmailField:
    return forms.EmailField(
        label=gettext_lazy("Adres e-mail"),
        required=False,
        max_length=254,
        help_text=gettext_lazy(
            "Nieobowiązkowy. Przyjdą na niego maile z gier przez posty (tura, przypomnienie, "
            "rozstrzygnięcie) i link do zmiany zapomnianego hasła, gdy go potwierdzisz."
        ),
    )


def _address_not_taken(address: str, user: User | None) -> str:
    """The typed address as stored; a ValidationError when another account has it (the
    message does not say which account)."""
    address = User.objects.normalize_email(address.strip())
    if address and account.address_taken(address, by_other_than=user):
        raise ValidationError(_("Ten adres jest już używany przez inne konto."))
    return address


@functools.cache
def time_zones() -> list[str]:
    """The zones this system knows, sorted (the tz database's names, e.g. "Europe/Warsaw")."""
    return sorted(zoneinfo.available_timezones())


class SignupForm(UserCreationForm):
    """Django's login and password pair, plus an optional address (saved by the view with
    `account.set_address`, which mails its confirmation link)."""

    email = _address_field()
    field_order = ["username", "email", "password1", "password2"]

    def clean_email(self) -> str:
        return _address_not_taken(self.cleaned_data.get("email", ""), None)


class ProfileForm(forms.Form):
    """What the account page's first section changes: name shown, address, language, zone."""

    display_name = forms.CharField(
        label=gettext_lazy("Wyświetlana nazwa"),
        max_length=150,
        required=False,
        help_text=gettext_lazy("Tak zobaczą Cię inni przy stole. Puste: Twój login."),
    )
    email = _address_field()
    language = forms.ChoiceField(label=gettext_lazy("Język"), choices=settings.LANGUAGES)
    time_zone = forms.ChoiceField(
        label=gettext_lazy("Strefa czasowa"),
        help_text=gettext_lazy("W tej strefie maile podają terminy tur."),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        zone = self.fields["time_zone"]
        assert isinstance(zone, forms.ChoiceField)
        zone.choices = [(name, name) for name in time_zones()]

    def clean_display_name(self) -> str:
        return " ".join(self.cleaned_data.get("display_name", "").split())

    def clean_email(self) -> str:
        return _address_not_taken(self.cleaned_data.get("email", ""), self.user)


class MailChoicesForm(forms.Form):
    """The by-post mails wanted in each campaign the person plays in: three checkboxes per
    membership, and the memberships the page showed (a membership joined since is left as it
    is; one not the person's refuses the whole form)."""

    shown = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        widget=forms.MultipleHiddenInput,
        error_messages={
            "invalid_choice": gettext_lazy(
                "Jednej z tych kampanii nie ma już na Twojej liście. Odśwież stronę."
            )
        },
    )

    def __init__(self, *args: Any, memberships: Iterable[Membership], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.memberships = list(memberships)
        shown = self.fields["shown"]
        assert isinstance(shown, forms.TypedMultipleChoiceField)
        shown.choices = [(m.pk, m.pk) for m in self.memberships]
        self.initial.setdefault("shown", [m.pk for m in self.memberships])
        for membership in self.memberships:
            for name in MAIL_CHOICES:
                model_field = Membership._meta.get_field(name)
                assert isinstance(model_field, models.BooleanField)
                label = capfirst(model_field.verbose_name)
                self.fields[f"{name}-{membership.pk}"] = forms.BooleanField(
                    label=label, required=False, initial=getattr(membership, name)
                )

    def rows(self) -> list[tuple[Membership, list[forms.BoundField]]]:
        """Each membership with its checkboxes, for the template."""
        return [(m, [self[f"{name}-{m.pk}"] for name in MAIL_CHOICES]) for m in self.memberships]

    def choices(self) -> dict[int, dict[str, bool]]:
        """For each membership shown: field name -> wanted (after `is_valid`)."""
        return {
            pk: {name: self.cleaned_data[f"{name}-{pk}"] for name in MAIL_CHOICES}
            for pk in self.cleaned_data["shown"]
        }


# ---- campaigns --------------------------------------------------------------------------------


class CampaignCreateForm(forms.ModelForm):
    ruleset = forms.ChoiceField(label=gettext_lazy("System"), choices=ruleset_choices)

    class Meta:
        model = Campaign
        fields = ["name", "description", "ruleset"]


class CampaignEditForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "description"]


class JoinCodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Kod zaproszenia"), max_length=40)


class CharacterForm(forms.ModelForm):
    """Name, notes and portrait; the GM also picks the kind and the player who owns a PC."""

    portrait = forms.ImageField(
        label=gettext_lazy("Portret"),
        required=False,
        validators=[validate_portrait],
        help_text=gettext_lazy("PNG, JPEG albo WebP, najwyżej 2 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp"}),
    )

    class Meta:
        model = Character
        fields = ["name", "kind", "owner", "notes", "portrait"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 5})}

    def __init__(self, *args: Any, campaign: Campaign, as_gm: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not as_gm:
            del self.fields["kind"], self.fields["owner"]
            return
        owner = self.fields["owner"]
        assert isinstance(owner, forms.ModelChoiceField)
        owner.queryset = User.objects.filter(
            memberships__campaign=campaign, memberships__role=Membership.Role.PLAYER
        ).order_by("username")
        owner.empty_label = _("— nikt —")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("kind") == Character.Kind.NPC and cleaned.get("owner"):
            self.add_error("owner", _("Bohater niezależny nie ma gracza."))
        return cleaned


class CreatureForm(forms.ModelForm):
    class Meta:
        model = CreatureTemplate
        fields = ["name", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}


class InstantiateForm(forms.Form):
    count = forms.IntegerField(label=gettext_lazy("Ile"), min_value=1, max_value=20, initial=1)
    base_name = forms.CharField(label=gettext_lazy("Nazwa"), max_length=MAX_NAME, required=False)


class ImportForm(forms.Form):
    """A JSON file or pasted text (exactly one), read into parsed data as `cleaned_data["data"]`."""

    file = forms.FileField(label=gettext_lazy("Plik JSON"), required=False)
    text = forms.CharField(
        label=gettext_lazy("…albo wklej JSON"),
        required=False,
        max_length=MAX_IMPORT_BYTES,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload, text = cleaned.get("file"), cleaned.get("text", "")
        if bool(upload) == bool(text):
            raise ValidationError(_("Wybierz plik albo wklej tekst (jedno z dwóch)."))
        if upload:
            if upload.size > MAX_IMPORT_BYTES:
                raise ValidationError(
                    _("Plik jest za duży: najwyżej %(max)d KB.") % {"max": MAX_IMPORT_BYTES // 1024}
                )
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ValidationError(_("Plik nie jest tekstem UTF-8.")) from None
        cleaned["data"] = read_json(text)
        return cleaned


# ---- the sheet editor -------------------------------------------------------------------------


def _item_field(spec: ItemField) -> forms.Field:
    """The input for one field of an equipment row or a single section; the ruleset's msgids
    translate lazily. A text with a default may stay empty, a choice with a "" key too."""
    label = rules_gettext_lazy(spec.label)
    if spec.type == "text":
        return forms.CharField(label=label, max_length=spec.maximum, required=spec.default is None)
    if spec.type == "int":
        return forms.IntegerField(
            label=label,
            min_value=spec.minimum,
            max_value=spec.maximum,
            initial=spec.default,
            required=spec.default is None,
        )
    if spec.type == "bool":
        return forms.BooleanField(label=label, required=False, initial=False)
    choices = [(key, rules_gettext_lazy(choice)) for key, choice in spec.choices]
    return forms.ChoiceField(
        label=label,
        choices=choices,
        initial=spec.default,
        required=all(key != "" for key, _choice in spec.choices),
    )


class ItemForm(forms.Form):
    """One equipment row, or a single section's fieldset; `specs` says which fields, in order."""

    specs: tuple[ItemField, ...] = ()
    single = False
    title: Any = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for spec in self.specs:
            self.fields[spec.key] = _item_field(spec)

    def item(self) -> dict[str, Any]:
        """The row in the sheet's shape; optional numbers left empty take their default."""
        data = dict(self.cleaned_data)
        for spec in self.specs:
            if spec.type == "int" and data.get(spec.key) is None:
                data[spec.key] = spec.default
        return data

    def value_fields(self) -> list[forms.BoundField]:
        return [self[s.key] for s in self.specs if s.type != "bool"]

    def flag_fields(self) -> list[forms.BoundField]:
        return [self[s.key] for s in self.specs if s.type == "bool"]


class CustomSkillForm(forms.Form):
    """A skill the ruleset does not list, in the range of the listed ones."""

    name = forms.CharField(label=gettext_lazy("Umiejętność"), max_length=MAX_SKILL_NAME)

    def __init__(self, *args: Any, minimum: int = 0, maximum: int = 10, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["value"] = forms.IntegerField(
            label=gettext_lazy("Poziom"), min_value=minimum, max_value=maximum
        )

    def value_fields(self) -> list[forms.BoundField]:
        return [self["name"], self["value"]]

    def flag_fields(self) -> list[forms.BoundField]:
        return []


class BaseRowFormSet(forms.BaseFormSet):
    title: Any = ""
    add_label: Any = ""
    single = False


class CustomSkillFormSet(BaseRowFormSet):
    def clean(self) -> None:
        if any(self.errors):
            return
        seen: set[str] = set()
        for form in self.forms:
            name = (form.cleaned_data.get("name") or "").strip()
            if name and name.casefold() in seen:
                raise ValidationError(_("Umiejętność „%(name)s” powtarza się.") % {"name": name})
            seen.add(name.casefold())


def _row_formset(
    form: type[forms.Form], base: type[BaseRowFormSet], title: Any, add_label: Any
) -> type[BaseRowFormSet]:
    formset = cast(
        type[BaseRowFormSet],
        forms.formset_factory(
            form,
            formset=base,
            extra=0,
            max_num=MAX_ITEMS,
            absolute_max=MAX_ITEMS,
            validate_max=True,
        ),
    )
    formset.title, formset.add_label = title, add_label
    return formset


CUSTOM_SKILLS = "custom_skills"  # the row prefix of the skills the ruleset does not list
CustomSkillRows = _row_formset(
    CustomSkillForm,
    CustomSkillFormSet,
    gettext_lazy("Własne umiejętności"),
    gettext_lazy("Dodaj umiejętność"),
)


def section_rows(section: SheetSection) -> type[BaseRowFormSet]:
    """The row formset of one equipment list the ruleset declares."""
    form = type(f"ItemForm_{section.key}", (ItemForm,), {"specs": section.fields})
    title, add_label = rules_gettext_lazy(section.title), rules_gettext_lazy(section.add_label)
    return _row_formset(form, BaseRowFormSet, title, add_label)


def single_form(section: SheetSection) -> type[ItemForm]:
    """The fieldset of one single section the ruleset declares (its inputs named
    <key>-<field>)."""
    attributes = {
        "specs": section.fields,
        "single": True,
        "title": rules_gettext_lazy(section.title),
    }
    return type(f"SingleForm_{section.key}", (ItemForm,), attributes)


class StatsForm(forms.Form):
    """One number input per attribute and per ruleset skill, named attr_<key> / skill_<key>."""

    def __init__(self, *args: Any, rules: Ruleset, settings: Mapping[str, Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.attribute_specs = rules.attributes(settings)
        self.skill_specs = rules.skills(settings)
        for prefix, specs in (("attr", self.attribute_specs), ("skill", self.skill_specs)):
            for spec in specs:
                self.fields[f"{prefix}_{spec.key}"] = forms.IntegerField(
                    label=rules_gettext_lazy(spec.label),
                    min_value=spec.minimum,
                    max_value=spec.maximum,
                )

    def attribute_fields(self) -> list[forms.BoundField]:
        return [self[f"attr_{spec.key}"] for spec in self.attribute_specs]

    def skill_fields(self) -> list[forms.BoundField]:
        return [self[f"skill_{spec.key}"] for spec in self.skill_specs]

    def attribute_groups(self) -> list[tuple[Any, list[forms.BoundField]]]:
        """The attribute inputs under their headings (the ruleset's groups, in its order)."""
        return [
            (title, [self[f"attr_{spec.key}"] for spec in specs])
            for title, specs in _titled(self.attribute_specs, gettext_lazy("Atrybuty"))
        ]

    def skill_groups(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [
            (title, [self[f"skill_{spec.key}"] for spec in specs])
            for title, specs in _titled(self.skill_specs, gettext_lazy("Umiejętności"))
        ]


def _titled(specs: tuple[StatSpec, ...], heading: Any) -> list[tuple[Any, list[StatSpec]]]:
    """The stats' groups under their translated headings; `heading` for those without one
    (and alone, with no stats, when there are none)."""
    groups = stat_groups(specs) or [("", [])]
    return [(rules_gettext_lazy(key) if key else heading, found) for key, found in groups]


class SheetEditor:
    """The stats form, the row formsets and the single sections' forms of one sheet, validated
    together (`parts()` gives the last two in the ruleset's order, custom skills first).

    `is_valid()` checks every part and then the assembled sheet with `clean_sheet`; afterwards
    `sheet` holds the normalised sheet and `errors` the problems that belong to no one field.
    """

    def __init__(
        self,
        data: QueryDict | None,
        *,
        rules: Ruleset,
        settings: Mapping[str, Any],
        initial: Mapping[str, Any],
    ) -> None:
        self.rules, self.settings = rules, settings
        self.sections = rules.sheet_sections(settings)
        self.stats = StatsForm(
            data, rules=rules, settings=settings, initial=_stats_initial(initial)
        )
        self.formsets = {CUSTOM_SKILLS: _custom_skill_rows(data, rules, settings, initial)}
        self.singles: dict[str, ItemForm] = {}
        for section in self.sections:
            if section.single:
                self.singles[section.key] = single_form(section)(
                    data, prefix=section.key, initial=dict(initial.get(section.key) or {})
                )
            else:
                self.formsets[section.key] = section_rows(section)(
                    data, prefix=section.key, initial=list(initial.get(section.key) or [])
                )
        self.sheet: dict[str, Any] = {}
        self.errors: list[str] = []

    def parts(self) -> list[BaseRowFormSet | ItemForm]:
        """The custom skills' rows, then each section (rows or fieldset) in the ruleset's order."""
        keys = [CUSTOM_SKILLS, *(section.key for section in self.sections)]
        return [self.formsets[key] if key in self.formsets else self.singles[key] for key in keys]

    def is_valid(self) -> bool:
        parts_valid = [
            self.stats.is_valid(),
            *(fs.is_valid() for fs in self.formsets.values()),
            *(form.is_valid() for form in self.singles.values()),
        ]
        if not all(parts_valid):
            return False
        try:
            self.sheet = clean_sheet(self._assemble(), rules=self.rules, settings=self.settings)
        except ValidationError as error:
            self.errors = list(error.messages)
            return False
        return True

    def summary(self) -> list[str]:
        """Every problem with where it is, for the list at the top of a long form."""
        problems = [
            f"{self.stats[name].label}: {error}"
            for name, errors in self.stats.errors.items()
            for error in errors
        ]
        for single in self.singles.values():
            problems += [
                f"{single.title}, {single[name].label if name in single.fields else ''}: {error}"
                for name, errors in single.errors.items()
                for error in errors
            ]
        for formset in self.formsets.values():
            problems += [f"{formset.title}: {error}" for error in formset.non_form_errors()]
            for index, form in enumerate(formset.forms, start=1):
                problems += [
                    f"{formset.title} {index}, {form[name].label if name in form.fields else ''}: "
                    f"{error}"
                    for name, errors in form.errors.items()
                    for error in errors
                ]
        return problems + self.errors

    def _assemble(self) -> dict[str, Any]:
        data = self.stats.cleaned_data
        skills = {s.key: data[f"skill_{s.key}"] for s in self.stats.skill_specs}
        for form in self.formsets[CUSTOM_SKILLS].forms:
            if form.cleaned_data:
                skills[form.cleaned_data["name"].strip()] = form.cleaned_data["value"]
        sheet: dict[str, Any] = {
            "attributes": {s.key: data[f"attr_{s.key}"] for s in self.stats.attribute_specs},
            "skills": skills,
        }
        for section in self.sections:
            if section.single:
                sheet[section.key] = self.singles[section.key].item()
                continue
            forms_ = self.formsets[section.key].forms
            sheet[section.key] = [f.item() for f in forms_ if f.cleaned_data]
        return sheet


def _custom_skill_rows(
    data: QueryDict | None, rules: Ruleset, settings: Mapping[str, Any], sheet: Mapping[str, Any]
) -> BaseRowFormSet:
    """The sheet's own skills as rows, in the range of the ruleset's skills."""
    listed = rules.skills(settings)
    low = min((s.minimum for s in listed), default=0)
    high = max((s.maximum for s in listed), default=10)
    extra = custom_skills(sheet, rules=rules, settings=settings)
    return CustomSkillRows(
        data,
        prefix=CUSTOM_SKILLS,
        initial=[{"name": k, "value": v} for k, v in extra.items()],
        form_kwargs={"minimum": low, "maximum": high},
    )


def _stats_initial(sheet: Mapping[str, Any]) -> dict[str, Any]:
    initial = {f"attr_{k}": v for k, v in dict(sheet.get("attributes") or {}).items()}
    initial.update({f"skill_{k}": v for k, v in dict(sheet.get("skills") or {}).items()})
    return initial


def reshape_rows(
    data: QueryDict,
    command: str,
    *,
    rules: Ruleset | None = None,
    settings: Mapping[str, Any] | None = None,
) -> QueryDict | None:
    """The POST data with one row added ("add <list>") or removed ("remove <list> 2").

    Lets the sheet editor grow and shrink its lists without JavaScript (the buttons submit the
    whole form) and with HTMX (the same request, one fieldset swapped). None when the command
    is not one of these. The lists are the ruleset's; without `rules`, those of every ruleset
    (a single section has no rows).
    """
    parts = command.split()
    lists: dict[str, tuple[ItemField, ...]] = {}
    for section in _known_sections(rules, settings):
        if not section.single:
            lists.setdefault(section.key, section.fields)
    lists.setdefault(CUSTOM_SKILLS, ())
    if len(parts) < 2 or parts[1] not in lists or parts[0] not in ("add", "remove"):
        return None
    prefix, reshaped = parts[1], data.copy()
    total = min(_int(data.get(f"{prefix}-TOTAL_FORMS")), MAX_ITEMS)
    initial = min(_int(data.get(f"{prefix}-INITIAL_FORMS")), total)
    if parts[0] == "add":
        if total < MAX_ITEMS:
            reshaped[f"{prefix}-TOTAL_FORMS"] = str(total + 1)
            # A bound form ignores `initial`: put the fields' defaults in the data.
            for spec in lists[prefix]:
                if spec.type in ("choice", "int") and spec.default is not None:
                    reshaped[f"{prefix}-{total}-{spec.key}"] = str(spec.default)
        return reshaped
    index = int(parts[2]) if len(parts) == 3 and parts[2].isdigit() else -1
    if not 0 <= index < total:
        return None
    rows = [(row, f"{prefix}-{row}-") for row in range(index, total)]
    for key in [k for k in data if any(k.startswith(start) for _row, start in rows)]:
        del reshaped[key]
    for row, start in rows[1:]:
        for key in [k for k in data if k.startswith(start)]:
            reshaped.setlist(f"{prefix}-{row - 1}-{key.removeprefix(start)}", data.getlist(key))
    reshaped[f"{prefix}-TOTAL_FORMS"] = str(total - 1)
    reshaped[f"{prefix}-INITIAL_FORMS"] = str(max(0, initial - (index < initial)))
    return reshaped


def _known_sections(
    rules: Ruleset | None, settings: Mapping[str, Any] | None
) -> tuple[SheetSection, ...]:
    """The ruleset's equipment lists, or every ruleset's for a caller that does not say which
    (a list key two rulesets share then takes the defaults of the first one, the default
    ruleset's)."""
    if rules is not None:
        return rules.sheet_sections(settings)
    every = (get_ruleset(key) for key, _label in ruleset_choices())
    return tuple(section for ruleset in every for section in ruleset.sheet_sections())


def _int(value: object) -> int:
    try:
        return max(0, int(str(value)))
    except ValueError:
        return 0
