from django.apps import AppConfig


class VariantsConfig(AppConfig):
    name = "variants"
    verbose_name = "Variants"

    def ready(self):
        from . import converters  # noqa: F401  registers <id:...> before any URL is read
