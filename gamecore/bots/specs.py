"""Bot specs: the small description a Player record keeps, and what ``--seats`` takes.

``"random"``, ``"easy"``, ``"medium"``, ``"hard"``, ``"mcts:2000"`` (simulations) and the
dict form ``{"kind": "mcts", "simulations": 2000}`` all name a bot. ``parse_spec`` turns
either into the dict form and rejects anything else with a message that says why.
"""

from collections.abc import Callable

from gamecore.engine.moves import is_number

from .base import RandomAgent

# kind -> (factory(seed, **options), the option a "kind:N" shorthand sets, allowed options)
REGISTRY: dict[str, tuple[Callable, str | None, dict[str, tuple[int, int]]]] = {
    "random": (RandomAgent, None, {}),
}


def register(kind: str, factory: Callable, shorthand: str | None = None, **options) -> None:
    """Add a bot kind; ``options`` maps each integer option to its (min, max)."""
    REGISTRY[kind] = (factory, shorthand, options)


class SpecError(ValueError):
    pass


def parse_spec(spec: str | dict) -> dict:
    if isinstance(spec, str):
        kind, _, arg = spec.strip().lower().partition(":")
        if kind not in REGISTRY:
            raise SpecError(f"unknown bot {spec!r}; known: {', '.join(sorted(REGISTRY))}")
        data: dict = {"kind": kind}
        if arg:
            shorthand = REGISTRY[kind][1]
            if shorthand is None or not is_number(arg):
                raise SpecError(f"{spec!r}: {kind} takes no ':{arg}'")
            data[shorthand] = int(arg)
        spec = data
    if not isinstance(spec, dict) or spec.get("kind") not in REGISTRY:
        raise SpecError(f"unknown bot {spec!r}; known: {', '.join(sorted(REGISTRY))}")
    allowed = REGISTRY[spec["kind"]][2]
    out = {"kind": spec["kind"]}
    for key, value in spec.items():
        if key == "kind":
            continue
        if key not in allowed:
            raise SpecError(f"{spec['kind']} has no option {key!r}")
        low, high = allowed[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise SpecError(f"{spec['kind']}.{key}: a whole number from {low} to {high}")
        out[key] = value
    return out


def spec_text(spec: dict) -> str:
    """The short form: "random", "mcts:2000"."""
    shorthand = REGISTRY[spec["kind"]][1]
    if shorthand and shorthand in spec and len(spec) == 2:
        return f"{spec['kind']}:{spec[shorthand]}"
    extra = ",".join(f"{k}={v}" for k, v in spec.items() if k != "kind")
    return spec["kind"] + (f"({extra})" if extra else "")


def make_agent(spec: str | dict, seed: int | None = None, time_limit: float | None = None):
    """A ready bot for a spec. ``time_limit`` (seconds a move) caps every bot's thinking."""
    return agent_maker(spec)(seed, time_limit)


def agent_maker(spec: str | dict):
    """``make_agent`` with its spec checked once: ``maker(seed, time_limit)`` makes the
    bot (a tournament makes two a game, of a few specs)."""
    spec = parse_spec(spec)
    factory = REGISTRY[spec["kind"]][0]
    options = {k: v for k, v in spec.items() if k != "kind"}

    def maker(seed: int | None = None, time_limit: float | None = None):
        agent = factory(seed=seed, time_limit=time_limit, **options)
        agent.spec = dict(spec)  # its own copy, as make_agent gave it
        return agent

    return maker
