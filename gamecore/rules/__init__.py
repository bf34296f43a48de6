"""The rule document: schema, defaults, validation, canonical form, fingerprint, summary.

Pure Python (no Django): used by the engine, the site, scripts and workers alike.
"""

from .canonical import canonical, canonical_json, document, fingerprint
from .errors import RulesError
from .schema import BoardSpec, InitialPiece, RuleDoc, Space, TurnCheck
from .summary import summary
from .validation import (
    color_names,
    dimension_limit,
    parse,
    reserve_limit,
    side_limit,
    validate_name,
)
from .vocabulary import COLORS, PLAYER_MODES, SHAPES

__all__ = [
    "COLORS",
    "PLAYER_MODES",
    "SHAPES",
    "BoardSpec",
    "InitialPiece",
    "RuleDoc",
    "RulesError",
    "Space",
    "TurnCheck",
    "canonical",
    "canonical_json",
    "color_names",
    "dimension_limit",
    "side_limit",
    "document",
    "fingerprint",
    "parse",
    "reserve_limit",
    "summary",
    "validate_name",
]
