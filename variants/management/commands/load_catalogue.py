from django.core.management.base import BaseCommand

from variants import catalogue
from variants.analysis_jobs import request_analysis
from variants.models import RuleSet
from variants.services import load_catalogue


class Command(BaseCommand):
    help = "Create the catalogue games that are missing, update changed ones (idempotent)."

    def handle(self, *args, **options):
        results = load_catalogue()
        for result in results:
            line = f"{result.action:8} {result.name}"
            if result.detail:
                line += f" — {result.detail}"
            done = ("created", "updated", "replaced")
            style = self.style.SUCCESS if result.action in done else self.style.NOTICE
            self.stdout.write(style(line) if result.action != "exists" else line)
        counts = {
            a: sum(r.action == a for r in results) for a in ("created", "updated", "replaced")
        }
        rest = len(results) - sum(counts.values())
        self.stdout.write(
            f"{counts['created']} created, {counts['updated']} updated, "
            f"{counts['replaced']} replaced, {rest} already there or skipped."
        )
        # Each game's analysis card: queued for the workers (a current one is kept).
        for rule_set in RuleSet.objects.filter(name__in=catalogue.names()):
            request_analysis(rule_set)
