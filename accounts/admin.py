from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import Player, User, normalised_bot_spec
from accounts.roles import is_admin


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    """Django's user admin plus the role, which only an Admin may change."""

    list_display = ["username", "role", "is_superuser", "is_staff", "date_joined"]
    list_filter = ["role", "is_superuser", "is_staff", "is_active"]
    fieldsets = [*UserAdmin.fieldsets, ("Role on the site", {"fields": ["role"]})]

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly if is_admin(request.user) else [*readonly, "role"]


class PlayerAdminForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["kind", "name", "owner", "bot_spec"]

    def clean_kind(self) -> str:
        # Humans come with their user and Random exists once: here one adds bots only.
        kind = self.cleaned_data["kind"]
        if self.instance._state.adding and kind != Player.Kind.BOT:
            raise forms.ValidationError("Only bots are added here; humans come with a user.")
        return kind

    def clean_bot_spec(self):
        spec = self.cleaned_data.get("bot_spec")
        kind = self.cleaned_data.get("kind", self.instance.kind)
        if kind == Player.Kind.BOT:
            return normalised_bot_spec(spec)
        return spec


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerAdminForm
    list_display = ["__str__", "kind", "owner", "bot_spec", "created"]
    list_filter = ["kind"]
    search_fields = ["name", "user__username"]
    list_select_related = ["user", "owner"]

    def get_readonly_fields(self, request, obj=None):
        # A saved player's kind never changes (a human stays tied to its user).
        return ["kind", "user"] if obj is not None else []

    def has_delete_permission(self, request, obj=None) -> bool:
        # Matches and ratings will point at players; Random and humans never go away.
        return obj is None or obj.kind == Player.Kind.BOT
