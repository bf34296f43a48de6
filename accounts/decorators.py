"""View guards: anonymous visitors are sent to log in, other roles get 403."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from accounts.roles import is_admin


def admin_required(view):
    @wraps(view)
    def guarded(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_admin(request.user):
            raise PermissionDenied("Only an Admin can open this page.")
        return view(request, *args, **kwargs)

    return guarded
