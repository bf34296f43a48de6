"""The Game Factory form as plain data: read from a POST, adjusted, written as a rule document.

Pure Python (no Django): a ``FactoryState`` is everything the factory page shows. The
view reads one from the posted form (``from_post``) or from a saved game (``from_doc``),
applies the button that was pressed (``apply_action``), lets ``adjust`` restore the
seed's rules between controls (hash is 3×3×1, stacks need a height, pieces fall, ...),
and either renders it again (``layout``) or saves ``to_document``.

Its parts, each importing only the ones before it: ``checks.py`` (a turn check, endings
as dropdown values, the names the sub-states share), the sub-states (``deck_state``,
``spaces``, ``moving_state``, ``phase_state``, ``nested_state``: each takes the form as an
argument and imports none of the modules below), ``form.py`` (the data), ``document.py``
(to and from a rule document), ``posted.py`` (the posted form), ``adjust.py`` (buttons
and ``adjust``). This module names them all, where the views and tests import them.
"""

from .adjust import adjust, adjusted_size, apply_action, piece_markers
from .document import default_state, derived_reserves, from_doc, to_document
from .form import FAMILIES, FLAT_BOARDS, MAX_BOARDS, MAX_CHECKS, Check, FactoryState
from .posted import encode_locked, encode_pieces, encode_reserves, from_post

__all__ = [
    "FAMILIES",
    "FLAT_BOARDS",
    "MAX_BOARDS",
    "MAX_CHECKS",
    "Check",
    "FactoryState",
    "adjust",
    "adjusted_size",
    "apply_action",
    "default_state",
    "derived_reserves",
    "encode_locked",
    "encode_pieces",
    "encode_reserves",
    "from_doc",
    "from_post",
    "piece_markers",
    "to_document",
]
