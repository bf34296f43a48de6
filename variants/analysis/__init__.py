"""What kind of game a variant is, in numbers: balance, length, solved value, difficulty
and related games. Pure Python over the engine's public API and the bots (no Django);
``analyse`` runs it all within a time budget. See README.md beside this file."""

from .report import ANALYSIS_VERSION, analyse

__all__ = ["ANALYSIS_VERSION", "analyse"]
