"""The embedded broker (kombu's file system) writes a message atomically: a worker that
polls while a message is being written never reads it half-written (kombu's own
transport showed it an empty file, and the worker's main process died decoding it)."""

from __future__ import annotations

from queue import Empty

import pytest
from kombu import Connection

import config.celery  # noqa: F401  (makes filesystem:// the atomic transport)
from config import fs_broker
from config.settings import filesystem_broker_options


@pytest.fixture
def channel(tmp_path):
    connection = Connection(
        "filesystem://localhost//", transport_options=filesystem_broker_options(tmp_path)
    )
    try:
        yield connection.default_channel
    finally:
        connection.release()


def test_filesystem_names_the_atomic_transport(channel):
    assert isinstance(channel, fs_broker.Channel)


def test_a_poll_during_a_write_sees_no_message_then_the_whole_one(channel, monkeypatch):
    seen = []
    real_dumps = fs_broker.dumps

    def dumps_and_poll(payload):  # runs while the message is being written
        text = real_dumps(payload)
        try:
            seen.append(channel._get("celery"))
        except Empty:
            seen.append("empty")
        return text

    monkeypatch.setattr(fs_broker, "dumps", dumps_and_poll)
    channel._put("celery", {"body": "hello"})
    assert seen == ["empty"]
    assert channel._get("celery") == {"body": "hello"}
    with pytest.raises(Empty):
        channel._get("celery")
