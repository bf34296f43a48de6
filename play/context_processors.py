"""The number of invitations waiting for the signed-in user (the navigation badge)."""

from django.utils.functional import SimpleLazyObject


def invitations(request) -> dict:
    user = getattr(request, "user", None)

    def count() -> int:  # one query, only on pages that show the badge
        if not getattr(user, "is_authenticated", False):
            return 0
        from play.reads import invitations_for

        return len(invitations_for(user))

    return {"invitation_count": SimpleLazyObject(count)}
