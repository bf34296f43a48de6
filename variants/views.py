from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from variants.models import RuleSet


def home(request: HttpRequest) -> HttpResponse:
    """Every saved game with its one-line summary (catalogue games first, in their order)."""
    rule_sets = RuleSet.objects.only("name", "summary").order_by("id")
    return render(request, "variants/home.html", {"rule_sets": rule_sets})
