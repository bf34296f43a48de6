from django import forms
from django.contrib import admin

from variants import rules
from variants.models import RuleSet
from variants.services import rename_rule_set


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


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    """Rule sets are created through the site; here only the name may change."""

    form = RuleSetAdminForm
    list_display = ["name", "summary", "created"]
    search_fields = ["name"]
    readonly_fields = ["fingerprint", "summary", "document", "created"]

    def has_add_permission(self, request) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        rename_rule_set(obj, form.cleaned_data["name"])
