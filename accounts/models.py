from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """The site's user. A custom model from the first migration, so that roles, players
    and universes can be added later without swapping ``AUTH_USER_MODEL``."""
