"""The signed-in user's role and quota, for the navigation bar of every page."""

from django.utils.functional import SimpleLazyObject

from accounts.roles import is_admin, is_trainer_or_admin, role_of


def roles(request) -> dict:
    user = getattr(request, "user", None)  # absent without the auth middleware

    def can_create() -> bool:  # a count query: run once, on pages that ask
        from variants.services import can_create as check

        return check(user)

    role = role_of(user)
    # Come back here after logging in, unless "here" is itself a log-in or sign-up page.
    match = getattr(request, "resolver_match", None)
    auth_page = match is not None and match.view_name in ("accounts:login", "accounts:signup")
    return {
        "login_next": "" if auth_page else request.get_full_path(),
        "user_role": role.label if role else "",
        "user_is_admin": is_admin(user),
        "user_is_trainer": is_trainer_or_admin(user),
        "user_may_train": is_trainer_or_admin(user),  # own bots (the "My bots" menu entry)
        "user_can_create": SimpleLazyObject(can_create),
    }
