from django.apps import AppConfig


class OwnbotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ownbots"
    verbose_name = "Own bots"
