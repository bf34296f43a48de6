"""A stand-in for ``gamecore.learn`` with the same API (tests only; settings
``AI_LEARN_PACKAGE = "tests.fake_learn"``): a label-frequency "classifier" stored as JSON,
an agent that plays at random and predicts the most frequent label, and plain metrics.
It lets the Django side be tested before the real core is merged."""
