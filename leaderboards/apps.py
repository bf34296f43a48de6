from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        from play.signals import match_finished

        from . import services

        match_finished.connect(services.on_match_finished, dispatch_uid="leaderboards.rate")
