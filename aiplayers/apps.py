from django.apps import AppConfig


class AiPlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "aiplayers"
    verbose_name = "AI players"

    def ready(self) -> None:
        from play.signals import match_finished

        from . import predictions

        match_finished.connect(predictions.on_match_finished, dispatch_uid="aiplayers.settle")
