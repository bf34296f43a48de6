"""Fill the expected win and draw probabilities of history rows rated before they were
kept (``leaderboards.backfill``)."""

from django.core.management.base import BaseCommand

from leaderboards.backfill import backfill_expectations


class Command(BaseCommand):
    help = "Fill RatingHistory.expected_win / expected_draw where they are missing."

    def handle(self, *args, **options):
        filled = backfill_expectations()
        self.stdout.write(f"Filled the expectations of {filled} rating-history rows.")
