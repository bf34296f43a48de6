from django.apps import AppConfig


class VariantsConfig(AppConfig):
    name = "variants"
    verbose_name = "Variants"
