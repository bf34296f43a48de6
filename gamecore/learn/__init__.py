"""Players that learn (release 1.8, DESIGN §9): pure Python with scikit-learn, no Django.

labels (the six outcome labels), features (a seat's view as a vector), algorithms (the
seven classifiers and the personality), model (``Learner``: fit, predict, store), serial
(the file format that cannot run code), study (a finished match as labelled samples),
agent (``LearnerAgent``: a bot), metrics (Accuracy, F1, Long Game). See README.md.
"""

from .algorithms import (
    ALGORITHMS,
    DEFAULT_ALGORITHM,
    PERSONALITY,
    make_classifier,
    validate_settings,
)
from .features import FeatureLayout, layout_for
from .labels import LABELS, label_for
from .model import Learner

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "LABELS",
    "PERSONALITY",
    "FeatureLayout",
    "Learner",
    "label_for",
    "layout_for",
    "make_classifier",
    "validate_settings",
]
