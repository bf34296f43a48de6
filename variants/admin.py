from django import forms
from django.contrib import admin, messages

from accounts.roles import is_admin
from gamecore import rules
from variants.models import RuleSet
from variants.services import hide_rule_set, remove_rule_set, rename_rule_set


class RuleSetAdminForm(forms.ModelForm):
    class Meta:
        model = RuleSet
        fields = ["name"]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        try:
            rules.validate_name(name)
        except rules.RulesError as exc:
            raise forms.ValidationError([e["message"] for e in exc.errors]) from None
        return name


class RemovedFilter(admin.SimpleListFilter):
    title = "removed"
    parameter_name = "removed"

    def lookups(self, request, model_admin):
        return [("no", "Not removed"), ("yes", "Removed")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(removed_at__isnull=self.value() == "no")
        return queryset


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    """Rule sets are created through the site. Here an Admin may rename one (through the
    service, so the document keeps the name) and hide, show or remove games with the
    actions; every other field is read-only, and nothing is ever deleted."""

    form = RuleSetAdminForm
    list_display = ["name", "creator", "summary", "hidden", "removed_at", "created"]
    list_filter = ["hidden", RemovedFilter]
    list_select_related = ["creator"]
    search_fields = ["name", "creator__username"]
    readonly_fields = [
        "creator",
        "hidden",
        "removed_at",
        "fingerprint",
        "summary",
        "document",
        "created",
    ]
    actions = ["hide", "unhide", "remove"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # matches keep their rule set: remove (soft) instead

    def has_change_permission(self, request, obj=None) -> bool:
        # Staff who are not Admins may look (with the view permission), never change.
        return is_admin(request.user) and super().has_change_permission(request, obj)

    def save_model(self, request, obj, form, change) -> None:
        if "name" in form.changed_data:
            rename_rule_set(obj, form.cleaned_data["name"], by=request.user)

    @admin.action(
        permissions=["change"], description="Hide the selected games (Admins still see them)"
    )
    def hide(self, request, queryset) -> None:
        for rule_set in queryset:
            hide_rule_set(rule_set, True, by=request.user)
        self.message_user(request, f"Hid {len(queryset)} game(s).", messages.SUCCESS)

    @admin.action(permissions=["change"], description="Show the selected games again")
    def unhide(self, request, queryset) -> None:
        for rule_set in queryset:
            hide_rule_set(rule_set, False, by=request.user)
        self.message_user(request, f"Showed {len(queryset)} game(s).", messages.SUCCESS)

    @admin.action(
        permissions=["change"],
        description="Remove the selected games (names and rules stay reserved)",
    )
    def remove(self, request, queryset) -> None:
        for rule_set in queryset:
            remove_rule_set(rule_set, by=request.user)
        self.message_user(
            request,
            f"Removed {len(queryset)} game(s). Their names and rules stay reserved.",
            messages.SUCCESS,
        )
