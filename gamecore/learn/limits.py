"""A model's bounds and its classes' order: what both the model (model.py) and its file
(serial.py) check, kept apart so that neither imports the other for them."""

from .labels import LABELS

SORTED = tuple(sorted(LABELS))  # scikit-learn keeps classes_ sorted
MAX_POSITIONS = 50_000  # days remembered per model (about 12 bytes each when stored)
MAX_FEATURES = 100_000
LAST_DAY = 3_652_059  # 9999-12-31
