from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from accounts.models import Role
from accounts.services import RESERVED_USERNAMES


class SignUpForm(UserCreationForm):
    """A new account: a Creator. Django already refuses names that differ from a user's
    only in case; the names of players who are not people are refused too."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ["username"]

    def clean_username(self) -> str:
        username = super().clean_username()  # None when taken (the error is recorded)
        if username and username.lower() in RESERVED_USERNAMES:
            raise forms.ValidationError(f"{username!r} is reserved; choose another name.")
        return username


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)
    # Set by the confirmation page: without it the view asks before changing anything.
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


class UserSearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=150, label="Search users")
