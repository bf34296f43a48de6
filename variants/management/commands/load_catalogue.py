from django.core.management.base import BaseCommand

from variants import catalogue
from variants.analysis_jobs import request_analysis
from variants.models import RuleSet
from variants.services import load_catalogue


class Command(BaseCommand):
    help = "Create the catalogue games that are missing (idempotent)."

    def handle(self, *args, **options):
        results = load_catalogue()
        for result in results:
            line = f"{result.action:8} {result.name}"
            if result.detail:
                line += f" — {result.detail}"
            style = self.style.SUCCESS if result.action == "created" else self.style.NOTICE
            self.stdout.write(style(line) if result.action != "exists" else line)
        created = sum(r.action == "created" for r in results)
        self.stdout.write(f"{created} created, {len(results) - created} already there or skipped.")
        # Each game's analysis card: queued for the workers (a current one is kept).
        for rule_set in RuleSet.objects.filter(name__in=catalogue.names()):
            request_analysis(rule_set)
