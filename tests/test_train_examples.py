"""docs/learning.md's "Train anywhere" examples run as written (gamecore/train/examples.py)."""

import contextlib
import io
import shutil
from pathlib import Path

import pytest

from gamecore.train.examples import EXAMPLES

GAMES = Path(__file__).resolve().parent.parent / "variants" / "catalogue" / "games"
NEEDS = {"pettingzoo": "pettingzoo", "openspiel": "pyspiel"}


@pytest.mark.parametrize("library", sorted(EXAMPLES))
def test_the_readme_example_runs(library, tmp_path, monkeypatch):
    try:
        __import__(NEEDS[library])
    except ImportError:
        pytest.skip(f"{library.upper()} IS NOT INSTALLED: ITS README EXAMPLE WAS NOT RUN")
    text = EXAMPLES[library]
    assert len(text.strip().splitlines()) <= 13, "a short example"
    for name in ("3on5sq.json", "Tic-Tac-Toe.json"):
        shutil.copy(GAMES / name, tmp_path / name)
    out = io.StringIO()
    monkeypatch.chdir(tmp_path)
    with contextlib.redirect_stdout(out):
        exec(compile(text, f"<{library} example>", "exec"), {"__name__": "__main__"})
    printed = out.getvalue()
    if library == "pettingzoo":
        assert "win" in printed or "draw" in printed
    else:
        assert printed.startswith("[")


def test_a_small_agent_trained_on_3on5sq_beats_random_from_the_second_seat():
    pytest.importorskip("pettingzoo", reason="PETTINGZOO IS NOT INSTALLED: NOT TRAINED")
    import json

    from gamecore.train.examples import play_against_random, train_against_random

    doc = json.loads((GAMES / "3on5sq.json").read_text())
    baseline = play_against_random(doc, None)  # Random against Random, second seat
    trained = play_against_random(doc, train_against_random(doc, episodes=800))
    assert baseline < 0.1 and trained > baseline + 0.5, (baseline, trained)
