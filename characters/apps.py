from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = "Kampanie i postacie"
