"""Every user gets a human Player as soon as it is saved, however it was made (sign-up,
``createsuperuser``, the admin, a test factory)."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.human_player")
def create_human_player(sender, instance, created, raw=False, **kwargs):
    if created and not raw:  # raw: loaddata brings its own players
        from accounts.services import human_player

        human_player(instance)
