from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The tasks are registered in every process, so that ``sending`` finds them by
        # name (Celery's autodiscovery finds them here too).
        from . import tasks  # noqa: F401
