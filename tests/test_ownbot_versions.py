"""ownbots.versions.record_versions reads the seat's player from what the chain holds:
the seated players leave Chaos's seat out, so a seat after it is one further on."""

from ownbots.versions import _seated


def test_a_seat_is_its_seated_player_with_chaos_seats_left_out():
    seated = ["a", "b", "c"]
    assert [_seated(seated, seat, None) for seat in range(4)] == ["a", "b", "c", None]
    # Chaos at seat 1: seats 0, 2, 3 are a, b, c; Chaos's own seat has no player.
    assert [_seated(seated, seat, 1) for seat in range(4)] == ["a", None, "b", "c"]
    assert [_seated(seated, seat, 0) for seat in range(4)] == [None, "a", "b", "c"]
