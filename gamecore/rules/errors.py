"""RulesError: a rule document that cannot be played, with every problem named by path."""


class RulesError(ValueError):
    """Raised for an invalid rule document.

    ``errors`` is a list of ``{"path": "board.size[0]", "message": "at most 19"}``;
    ``str()`` joins them into one readable line per problem.
    """

    def __init__(self, errors: list[dict[str, str]]):
        self.errors = errors
        super().__init__("\n".join(f"{e['path'] or 'document'}: {e['message']}" for e in errors))

    @classmethod
    def single(cls, path: str, message: str) -> "RulesError":
        return cls([{"path": path, "message": message}])


def format_path(loc: tuple) -> str:
    """('board', 'size', 0) -> 'board.size[0]'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
