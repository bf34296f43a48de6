"""Websocket frames read by an independent parser (``websockets``), for the tests of the
site's own frame writing and the benchmark's own frame reading."""

from __future__ import annotations

from websockets.frames import Frame


def read_frame(data: bytes, *, mask: bool) -> Frame:
    """The one frame ``data`` holds, as a client (``mask=False``) or a server reads it;
    fails if bytes are left over or missing."""
    at = 0

    def read_exact(n):
        nonlocal at
        chunk, at = data[at : at + n], at + n
        return chunk
        yield  # (a generator, as the parser expects)

    try:
        next(Frame.parse(read_exact, mask=mask, max_size=None))
    except StopIteration as done:
        assert at == len(data), "bytes left after the frame"
        return done.value
    raise AssertionError("the parser wanted more bytes")
