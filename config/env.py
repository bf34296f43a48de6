"""Typed readers for settings that come from environment variables.

Each helper fails loudly (``ImproperlyConfigured``) on a value it cannot read, so a typo
in a deployment stops the process at start-up instead of silently meaning "default".
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: bool) -> bool:
    """Read a boolean: 1/true/yes/on or 0/false/no/off (any case); unset gives ``default``."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected one of 1/0, true/false, yes/no, on/off")


def envint(name: str, default: int, *, minimum: int | None = None) -> int:
    """Read an integer; unset or empty gives ``default``."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value}: must be at least {minimum}")
    return value


def envfloat(name: str, default: float) -> float:
    """Read a number; unset or empty gives ``default``."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a number") from None


def envlist(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; unset gives ``default``."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def envstr(name: str, default: str = "") -> str:
    """Read a string; unset or blank gives ``default``."""
    return os.environ.get(name, "").strip() or default


def stored_secret_key(path: Path) -> str:
    """The secret key kept in ``path``, made (50 random URL-safe bytes, readable by the
    owner only) the first time. Processes starting together agree: the file is created
    with O_EXCL, and a loser reads the winner's key."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # the winner may not have written it yet
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.01)
        raise ImproperlyConfigured(f"{path} is empty: delete it or set SECRET_KEY") from None
    key = secrets.token_urlsafe(50)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key


def site_channel_prefix(redis_url: str, database_name: str) -> str:
    """The channel layer's default prefix: Redis pub/sub channels are shared by every
    database number of a server, so two sites (or two test runs) on one Redis would
    hear each other's group messages. The prefix names the Redis database number and a
    short hash of the site's database name, the same in every process of one site."""
    import hashlib
    from urllib.parse import urlsplit

    path = urlsplit(redis_url).path.strip("/")
    number = path if path.isdigit() else "0"
    digest = hashlib.sha256(str(database_name).encode()).hexdigest()[:10]
    return f"vf{number}-{digest}"
