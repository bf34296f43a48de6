"""``match_finished(match_id=...)`` is sent after a match's end commits (ratings listen)."""

from django.dispatch import Signal

match_finished = Signal()
