from django.db import migrations, models
from django.db.models import F


def state_at_head(apps: object, schema_editor: object) -> None:
    """Until now every entry wrote the whole state: it is the fold at the head."""
    encounter = apps.get_model("combat", "Encounter")  # type: ignore[attr-defined]
    encounter.objects.update(state_seq=F("seq"))


class Migration(migrations.Migration):
    dependencies = [
        ("combat", "0002_verifiable_rolls_and_posts"),
    ]

    operations = [
        migrations.AddField(
            model_name="encounter",
            name="state_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(state_at_head, migrations.RunPython.noop),
    ]
