from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Play"

    def ready(self) -> None:
        from django.conf import settings

        from gamecore.engine.game import set_cache_size
        from variants.signals import game_withdrawn

        from .withdrawn import on_game_withdrawn

        set_cache_size(settings.GAME_CACHE_SIZE)  # compiled games kept per process
        game_withdrawn.connect(on_game_withdrawn, dispatch_uid="play.withdrawn")
