"""The one error a match write raises: a stable ``code`` for clients, a ``reason`` for
people (never an exception's raw text from deeper down)."""


class MatchError(Exception):
    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason

    def event(self) -> dict:
        return {"type": "error", "code": self.code, "reason": self.reason}
