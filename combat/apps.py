from django.apps import AppConfig
from django.conf import settings
from django.utils.module_loading import import_string


class CombatConfig(AppConfig):
    name = "combat"
    verbose_name = "Walka"

    def ready(self) -> None:
        """Register the rulesets the site adds to the built-in list (`EXTRA_RULESETS`:
        "module:attribute" paths, e.g. the test suite's own small ruleset), and the live
        layer's sender as the hook the table service publishes through."""
        from combat import hub, publishing
        from combat.rules.registry import register

        publishing.register(hub.send)

        for path in getattr(settings, "EXTRA_RULESETS", ()):
            register(import_string(path.replace(":", ".")))
