from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Play"

    def ready(self):
        from variants.signals import game_withdrawn

        from .withdrawn import on_game_withdrawn

        game_withdrawn.connect(on_game_withdrawn, dispatch_uid="play.withdrawn")
