"""Compiled games are cached with a bound (issue 39: kept for the life of the process,
they grew daphne past a gigabyte): the least recently used go past the size set."""

import pytest

from gamecore.engine import compile_game
from gamecore.engine.game import _compiled, set_cache_size
from gamecore.engine.lru import DEFAULT_SIZE, LRU


def doc(n: int) -> dict:
    return {"name": f"Cached{n}", "board": {"type": "squares", "size": [3 + n, 3, 1]}}


@pytest.fixture
def small_cache():
    set_cache_size(3)
    yield
    set_cache_size(DEFAULT_SIZE)


def test_compiled_games_are_kept_up_to_the_size_set(small_cache):
    first = compile_game(doc(0))
    assert compile_game(doc(0)) is first  # cached
    for n in range(1, 4):
        compile_game(doc(n))
    assert len(_compiled) == 3
    assert compile_game(doc(0)) is not first  # the least recently used went
    assert compile_game(doc(3)) is compile_game(doc(3))


def test_reading_an_entry_keeps_it():
    cache = LRU(2)
    cache["a"], cache["b"] = 1, 2
    assert cache.get("a") == 1
    cache["c"] = 3  # "b" is now the least recently used
    assert list(cache) == ["a", "c"] and cache.get("b") is None
    cache.resize(1)
    assert list(cache) == ["c"]


def test_the_sites_cache_of_compiled_games_is_bounded_by_a_setting(settings):
    from play import replay

    assert isinstance(replay._games, LRU)
    assert replay._games.maxsize == settings.GAME_CACHE_SIZE
    assert _compiled.maxsize == settings.GAME_CACHE_SIZE
