"""Phases (issue 19; rules/phases.py, engine/general/phases.py): the rule document's
validation, normal form and summary, and how the general state plays phases: stalemate
advances the phase, the last phase's stalemate ends the game by the stalemate rule, locked
seats are skipped, the option to pass, placement only and locked spaces are per phase, a
"single" phase lasts one round, and each fold word folds the seats it names."""

import pytest

from gamecore.engine import IllegalMove
from gamecore.rules import RulesError, fingerprint, parse, summary
from tests.engine_helpers import game, play
from variants import catalogue
from variants.catalogue.tables_meta import META as DILEMMAS  # issue 19: games with phases


def errors(doc) -> dict[str, str]:
    with pytest.raises(RulesError) as exc:
        parse({"name": "T", **doc})
    return {e["path"]: e["message"] for e in exc.value.errors}


def legal(state, seat=None) -> set[str]:
    seat = state.to_move()[0] if seat is None else seat
    return {str(m) for m in state.legal_moves(seat)}


def line(n=4, black=2, white=2, **extra):
    """A row of n squares, black and white circles in reserve (placement only pieces)."""
    return {
        "board": {"type": "squares", "size": [n, 1, 1]},
        "reserves": {"black": {"circle": black}, "white": {"circle": white}},
        "turn_checks": [],
        **extra,
    }


# -- the document ------------------------------------------------------------------------
def test_validation_names_each_phase_problem():
    found = errors(
        line(
            players="2",
            phases=[
                {"locked_seats": [3], "locked": [{"at": [9, 1, 1]}]},
                {"cloaked": [{"at": [1, 1, 1]}]},
                {"fold": "less-than-most-committed"},
            ],
        )
    )
    assert found["phases[0].locked_seats"] == "seats are numbered 1 to 2"
    assert "off the 4×1×1 board" in found["phases[0].locked[0]"]
    assert "cloaking type" in found["phases[1].cloaked"]
    assert "not on the last phase" in found["phases[2].fold"]


def test_at_most_six_phases_and_pass_per_phase():
    assert "at most 6" in errors(line(phases=[{}] * 7))["phases"]
    assert "per phase" in errors(line(allow_pass=True, phases=[{}, {}]))["allow_pass"]
    assert "must be one of" in errors(line(phases=[{"fold": "sometimes"}, {}]))["phases[0].fold"]
    assert "must be one of" in errors(line(phases=[{"order": "random"}]))["phases[0].order"]


def test_nested_boards_refuse_phases():
    found = errors({"board": {"type": "nested"}, "phases": [{}, {}], "cloaking": "hides"})
    assert "no phases" in found["phases"] and "no cloaking" in found["cloaking"]


def test_a_single_phase_saying_what_the_document_says_normalises_away():
    for allow_pass in (False, True):
        plain = parse({"name": "T", **line(allow_pass=allow_pass)})
        phased = parse({"name": "T", **line(phases=[{"allow_pass": allow_pass}])})
        assert phased.phases == () and phased.allow_pass == allow_pass
        assert fingerprint(phased) == fingerprint(plain)
    one = parse({"name": "T", **line(phases=[{"order": "simultaneous"}])})
    assert len(one.phases) == 1 and fingerprint(one) != fingerprint(parse({"name": "T", **line()}))


def test_phase_lists_are_sorted_and_deduplicated():
    a = parse({"name": "T", **line(phases=[{"locked_seats": [2, 1, 2]}, {}])})
    b = parse({"name": "T", **line(phases=[{"locked_seats": [1, 2]}, {}])})
    assert a.phases[0].locked_seats == (1, 2) and fingerprint(a) == fingerprint(b)


CLOAKED = ("3Blotto13", "KBeauty9", "Shopping9", "3P-9X-HideSeek")  # issue 20's games have phases
RELEASE = ("4P-Blind-TTT", "3P-NeedyPoker", "3P-RichPoker", "KPoker")  # issue 34's too


@pytest.mark.parametrize(
    "name", [n for n in catalogue.names() if n not in DILEMMAS and n not in CLOAKED + RELEASE]
)
def test_catalogue_documents_say_nothing_of_phases(name):
    doc = parse(catalogue.get(name))
    assert doc.phases == () and doc.cloaking == "none"
    assert "Phase" not in summary(doc)


STACKS = {
    "board": {"type": "stacks", "size": [3, 1, 3]},
    "reserves": {"black": {"circle": 3}, "white": {"circle": 3}},
}


def test_z0_names_a_whole_stack_and_is_the_same_document_as_its_spaces():
    whole = parse({"name": "T", **STACKS, "sticky": [{"at": [2, 1, 0]}]})
    spelled = parse({"name": "T", **STACKS, "sticky": [{"at": [2, 1, z]} for z in (3, 1, 2)]})
    assert [s.at for s in whole.sticky] == [(2, 1, 1), (2, 1, 2), (2, 1, 3)]
    assert fingerprint(whole) == fingerprint(spelled)
    locked = parse({"name": "T", **STACKS, "phases": [{"locked": [{"at": [1, 1, 0]}]}, {}]})
    assert len(locked.phases[0].locked) == 3
    assert "(1,1) stack locked" in summary(locked)


def test_z0_is_refused_off_stacks_and_for_initial_pieces():
    assert "only on stacks" in errors(line(sticky=[{"at": [1, 1, 0]}]))["sticky[0].at"]
    assert (
        "x=5"
        in errors({**STACKS, "exclusive": [{"at": [5, 1, 0], "seats": [1]}]})["exclusive[0].at"]
    )
    found = errors({**STACKS, "initial_pieces": [{"at": [1, 1, 0], "color": "black"}]})
    assert "z=0" in found["initial_pieces[0]"]


def test_summary_reads_like_the_seed():
    doc = parse(
        {
            "name": "T",
            "players": "2-vs-chaos",
            "board": {"type": "stacks", "size": [5, 1, 8]},
            "reserves": {"black": {"circle": 2}, "white": {"circle": 2}, "pink": {"circle": 2}},
            "cloaking": "hides",
            "phases": [
                {"order": "single", "allow_pass": True, "locked_seats": [3]},
                {"locked_seats": [1, 2], "locked": [{"at": [5, 1, 0]}], "placement_only": True},
                {"order": "simultaneous", "cloaked": [{"at": [1, 1, 1]}]},
            ],
        }
    )
    text = summary(doc)
    assert "Cloaking hides" in text
    assert "Phase 1: Single, Option to pass, chaos locked" in text
    phase2 = "Phase 2: No option to pass, Placement only, only chaos unlocked, (5,1) stack locked"
    assert phase2 in text
    assert "Phase 3: Simultaneous, No option to pass, (1,1,1) cloaked" in text


# -- playing phases ------------------------------------------------------------------------
def test_stalemate_advances_the_phase_and_locked_seats_are_skipped():
    g = game(line(stalemate="most-pieces-wins", phases=[{"locked_seats": [2]}, {}]))
    s = g.new_initial_state()
    assert s.to_move() == (0,) and s.view(0)["phase"]["locked_seats"] == [2]
    play(s, "1,1,1")
    assert s.to_move() == (0,)  # white is locked in phase 1: black moves again
    assert s.legal_moves(1) == []
    play(s, "2,1,1")  # black has nothing left: stalemate ends phase 1
    assert s.view(None)["phase"] == {
        "number": 2, "of": 2, "order": "sequential", "locked_seats": [], "folded": [],
        "allow_pass": False, "placement_only": False,
    }  # fmt: skip
    # phase 2 begins with the seat to move (black) or the next one that has a move
    assert s.outcome is None and s.to_move() == (1,)


def test_the_last_phase_stalemate_ends_the_game_by_the_stalemate_rule():
    g = game(line(stalemate="most-pieces-wins", phases=[{"locked_seats": [2]}, {}]))
    s = play(g.new_initial_state(), "1,1,1", "2,1,1", "3,1,1")
    # phase 2: white placed one; black, to move, has no piece: the game ends, most pieces
    assert s.outcome is not None and s.outcome.results == ("win", "loss")
    assert s.outcome.reason == "stalemate"


def test_a_phase_with_no_active_seat_passes_straight_on():
    g = game(line(phases=[{"locked_seats": [1, 2]}, {"locked_seats": [1]}]))
    s = g.new_initial_state()
    assert s.view(None)["phase"]["number"] == 2 and s.to_move() == (1,)


def test_the_option_to_pass_is_per_phase_and_all_passing_ends_a_phase():
    g = game(line(phases=[{"allow_pass": True}, {}]))
    s = g.new_initial_state()
    assert "pass" in legal(s)
    play(s, "pass", "pass")  # every active seat passed in a row
    assert s.view(None)["phase"]["number"] == 2
    assert "pass" not in legal(s)
    with pytest.raises(IllegalMove):
        play(s, "pass")


def two_shapes(**extra) -> dict:
    """Circles step to an adjacent space; a triangle each stays in reserve (so the phase
    does not end for want of moves)."""
    return line(
        n=4,
        shapes=["circle", "triangle"],
        reserves={"black": {"circle": 1, "triangle": 1}, "white": {"circle": 1, "triangle": 1}},
        shape_rules={"circle": {"move": "adjacent"}},
        **extra,
    )


def test_placement_only_forbids_steps_in_its_phase():
    phases = [{"placement_only": True, "allow_pass": True}, {"allow_pass": True}]
    g = game(two_shapes(phases=phases))
    s = play(g.new_initial_state(), "circle 1,1,1", "circle 4,1,1")
    # the black circle could step, but not in phase 1
    assert legal(s) == {"triangle 2,1,1", "triangle 3,1,1", "pass"}
    with pytest.raises(IllegalMove):
        play(s, "1,1,1-2,1,1")
    play(s, "pass", "pass")
    assert "1,1,1-2,1,1" in legal(s)


def test_a_phase_locks_spaces_for_entry_and_exit():
    locked = [{"at": [2, 1, 1]}]
    g = game(two_shapes(phases=[{"locked": locked, "allow_pass": True}, {"allow_pass": True}]))
    s = g.new_initial_state()
    assert "circle 2,1,1" not in legal(s) and "circle 1,1,1" in legal(s)
    play(s, "circle 1,1,1", "circle 4,1,1")
    assert legal(s) == {"triangle 3,1,1", "pass"}  # no step into the locked space
    play(s, "pass", "pass")
    assert s.to_move() == (0,)  # the turn goes on after the last seat to pass
    assert {"1,1,1-2,1,1", "triangle 2,1,1"} <= legal(s)


def test_a_single_phase_lasts_one_round():
    g = game(line(n=6, black=3, white=3, phases=[{"order": "single"}, {}]))
    s = g.new_initial_state()
    assert s.to_move() == (0, 1)
    play(s, "1,1,1", "6,1,1")
    assert s.view(None)["phase"]["number"] == 2 and s.to_move() == (0,)
    assert s.round == 1 and [str(m) for _seat, m in s.last_round] == ["1,1,1", "6,1,1"]


# -- folds ---------------------------------------------------------------------------------
def three(fold: str, **extra) -> dict:
    """Three players on a row of 6, the first three spaces sticky; pink has one piece."""
    return {
        "players": "3",
        "board": {"type": "squares", "size": [6, 1, 1]},
        "reserves": {"black": {"circle": 2}, "white": {"circle": 2}, "pink": {"circle": 1}},
        "turn_checks": [],
        "sticky": [{"at": [x, 1, 1]} for x in (1, 2, 3)],
        "phases": [{"fold": fold}, {}],
        **extra,
    }


@pytest.mark.parametrize(
    ("fold", "folded"),
    [
        ("none", []),
        # committed: black 2 (two sticky), white 0, pink 1; pieces: 2, 2, 1
        ("less-than-most-committed", [2, 3]),
        ("uncommitted", [2]),
        ("less-than-most-pieces", [3]),
    ],
)
def test_each_fold_word_folds_the_seats_it_names(fold, folded):
    g = game(three(fold))
    s = play(g.new_initial_state(), "1,1,1", "5,1,1", "3,1,1", "2,1,1", "6,1,1")
    # pink, to move, has no piece left: stalemate ends phase 1 and the fold applies
    assert s.view(None)["phase"]["folded"] == folded


def test_a_folded_seat_never_moves_again_but_may_still_win():
    doc = line(
        stalemate="all-win",
        sticky=[{"at": [1, 1, 1]}],
        phases=[{"allow_pass": True, "fold": "less-than-most-committed"}, {"allow_pass": True}],
    )
    g = game(doc)
    s = play(g.new_initial_state(), "1,1,1", "pass", "pass")
    assert s.view(None)["phase"] == {**s.view(None)["phase"], "number": 2, "folded": [2]}
    seen = set()
    while s.outcome is None:
        seen.update(s.to_move())
        play(s, sorted(legal(s))[0])
    assert seen == {0}  # white held pieces in reserve but never moved again
    assert s.outcome.results == ("win", "win")


def test_chaos_never_folds():
    doc = {
        "players": "2-vs-chaos",
        "board": {"type": "squares", "size": [4, 1, 1]},
        "reserves": {"black": {"circle": 1}, "white": {"circle": 1}, "pink": {"circle": 1}},
        "turn_checks": [],
        "sticky": [{"at": [1, 1, 1]}],
        "phases": [{"fold": "uncommitted", "locked_seats": [3]}, {}],
    }
    s = play(game(doc).new_initial_state(), "1,1,1", "2,1,1")
    assert s.view(None)["phase"]["folded"] == [2]  # not Chaos (seat 3), with none committed
    assert s.to_move() == (2,)  # phase 2: black has nothing, white folded, Chaos moves


def test_summary_names_whole_stacks_of_exclusive_and_sticky_spaces():
    doc = parse(
        {
            "name": "T",
            **STACKS,
            "exclusive": [{"at": [1, 1, 0], "seats": [1]}, {"at": [2, 1, 2], "seats": [2]}],
            "sticky": [{"at": [3, 1, 0]}],
        }
    )
    text = summary(doc)
    assert "(3,1) stack sticky" in text
    assert "(1,1) stack exclusive to black" in text and "(2,1,2) exclusive to white" in text
