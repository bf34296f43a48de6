"""The settings read the environment and refuse what they cannot use."""

import runpy
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import envbool, envfloat, envint, envlist

SETTINGS = Path(__file__).resolve().parent.parent / "config" / "settings.py"


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in (
        "DATABASE_URL",
        "REDIS_URL",
        "DEBUG",
        "SECRET_KEY",
        "SQLITE_PATH",
        "CELERY_KEY_PREFIX",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("VAR_DIR", str(tmp_path / "var"))
    return monkeypatch


def load_settings() -> dict:
    return runpy.run_path(str(SETTINGS))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("true", True), ("YES", True), ("on", True), ("0", False), ("off", False)],
)
def test_envbool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("SOME_FLAG", raw)
    assert envbool("SOME_FLAG", not expected) is expected


def test_envbool_default_when_unset(monkeypatch):
    monkeypatch.delenv("SOME_FLAG", raising=False)
    assert envbool("SOME_FLAG", True) is True


@pytest.mark.parametrize(
    ("helper", "raw"),
    [(envbool, "maybe"), (envint, "12abc"), (envint, "1.5"), (envfloat, "fast")],
)
def test_junk_values_are_refused(monkeypatch, helper, raw):
    monkeypatch.setenv("SOME_VALUE", raw)
    with pytest.raises(ImproperlyConfigured, match="SOME_VALUE"):
        helper("SOME_VALUE", 1)


def test_envint_minimum(monkeypatch):
    monkeypatch.setenv("SOME_VALUE", "-3")
    with pytest.raises(ImproperlyConfigured, match="at least 0"):
        envint("SOME_VALUE", 1, minimum=0)
    monkeypatch.setenv("SOME_VALUE", "7")
    assert envint("SOME_VALUE", 1, minimum=0) == 7


def test_envlist(monkeypatch):
    monkeypatch.setenv("HOSTS", " a.example, b.example ,")
    assert envlist("HOSTS", []) == ["a.example", "b.example"]


def test_junk_debug_stops_the_settings(clean_env):
    clean_env.setenv("DEBUG", "perhaps")
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        load_settings()


def test_placeholder_secret_refused_without_debug(clean_env):
    clean_env.setenv("DEBUG", "0")
    clean_env.setenv("SECRET_KEY", "dev-only-insecure-secret-key-change-me")
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings()
    clean_env.setenv("SECRET_KEY", "a-real-secret-for-this-test-only")
    conf = load_settings()
    assert conf["DEBUG"] is False and conf["SECRET_KEY"] == "a-real-secret-for-this-test-only"


def test_debug_is_off_and_a_secret_is_made_once_unless_given(clean_env, tmp_path):
    conf = load_settings()
    assert conf["DEBUG"] is False
    stored = tmp_path / "var" / "secret_key"
    assert conf["SECRET_KEY"] == stored.read_text().strip() and len(conf["SECRET_KEY"]) >= 50
    assert stored.stat().st_mode & 0o777 == 0o600
    assert load_settings()["SECRET_KEY"] == conf["SECRET_KEY"]  # kept, not made again
    clean_env.setenv("DEBUG", "1")
    assert load_settings()["DEBUG"] is True


def test_embedded_defaults(clean_env, tmp_path):
    conf = load_settings()
    db = conf["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(db["NAME"]) == tmp_path / "var" / "db.sqlite3"
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]
    assert conf["CHANNEL_LAYERS"]["default"]["BACKEND"].endswith("InMemoryChannelLayer")
    assert conf["CELERY_BROKER_URL"].startswith("filesystem://")
    options = conf["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert options["polling_interval"] == 0.02  # issue 36: as long as a round at 0.1
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        assert Path(options[key]).is_dir()
    assert conf["CELERY_RESULT_BACKEND"] == "django-db"


def test_production_shape(clean_env):
    clean_env.setenv("DATABASE_URL", "postgres://vf:pw@db.internal:5432/vf")
    clean_env.setenv("REDIS_URL", "redis://cache.internal:6379/0")
    conf = load_settings()
    db = conf["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["NAME"]) == ("db.internal", "vf")
    layer = conf["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"]["hosts"] == ["redis://cache.internal:6379/0"]
    assert conf["CELERY_BROKER_URL"] == "redis://cache.internal:6379/0"


@pytest.mark.django_db
def test_suite_runs_on_the_configured_services(settings):
    """Under CI's DATABASE_URL / REDIS_URL the suite really uses PostgreSQL and Redis."""
    import os

    from django.db import connection

    from config.celery import app

    expected_vendor = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    assert connection.vendor == expected_vendor
    expected_broker = "redis" if os.environ.get("REDIS_URL") else "filesystem"
    assert app.connection_for_write().transport_cls == expected_broker


def test_the_file_system_broker_poll_is_a_setting(clean_env, tmp_path):
    clean_env.setenv("FS_BROKER_POLL", "0.5")
    assert load_settings()["CELERY_BROKER_TRANSPORT_OPTIONS"]["polling_interval"] == 0.5


def test_the_broker_key_prefix_is_a_setting_with_bounds(clean_env):
    clean_env.setenv("REDIS_URL", "redis://cache.internal:6379/0")
    assert "global_keyprefix" not in load_settings()["CELERY_BROKER_TRANSPORT_OPTIONS"]
    clean_env.setenv("CELERY_KEY_PREFIX", "site-b:")
    assert load_settings()["CELERY_BROKER_TRANSPORT_OPTIONS"]["global_keyprefix"] == "site-b:"
    for junk in ("a b", "x" * 41, "{hash}"):
        clean_env.setenv("CELERY_KEY_PREFIX", junk)
        with pytest.raises(ImproperlyConfigured, match="CELERY_KEY_PREFIX"):
            load_settings()
