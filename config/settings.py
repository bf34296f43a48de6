"""Django settings for Variant Foundry, driven by environment variables.

No variables: everything runs on one machine with nothing to install — SQLite in
``var/``, the in-memory channel layer and Celery over a file-system broker.
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channel layer + Celery broker) switch
to the production shape: several daphne processes and workers on several machines.
See README.md ("Production shape") for the full list.
"""

from __future__ import annotations

import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    envbool,
    envfloat,
    envint,
    envlist,
    envstr,
    site_channel_prefix,
    stored_secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(envstr("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# --- Security -------------------------------------------------------------------------

PLACEHOLDER_SECRET_KEY = "dev-only-insecure-secret-key-change-me"  # noqa: S105

# Off unless asked for (DEBUG=1): even `make run` shows what a visitor sees in production
# (the site's own 404/403/400/500 pages, never Django's pages that list every URL).
DEBUG = envbool("DEBUG", False)
# No SECRET_KEY set: one is generated once into var/ and kept (sessions survive restarts).
SECRET_KEY = envstr("SECRET_KEY", "") or stored_secret_key(VAR_DIR / "secret_key")
if not DEBUG and SECRET_KEY == PLACEHOLDER_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set to a real secret when DEBUG is off")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])
if envbool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- Applications ---------------------------------------------------------------------

INSTALLED_APPS = [
    "daphne",  # first: `runserver` serves ASGI (HTTP + websockets)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_celery_results",
    "accounts",
    "variants",
    "play",
    "leaderboards",
    "tournaments",
    "ownbots",
    "aiplayers",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.text_input.DropControlCookies",  # before the session reads its cookie
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "api.middleware.ControlCharactersAsJson",  # before any page-wide rule answers in HTML
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # After the session and user (its 400 page is the site's own), before every view.
    "config.text_input.RefuseControlCharacters",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
AUTH_USER_MODEL = "accounts.User"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.roles",
                "play.context_processors.invitations",
            ],
        },
    },
]

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# --- Database -------------------------------------------------------------------------
# DATABASE_URL (postgres://user:pass@host:5432/name) selects PostgreSQL through psycopg 3.
# Otherwise SQLite at SQLITE_PATH (default var/db.sqlite3), in WAL mode with a busy timeout
# and IMMEDIATE transactions: the web process and the Celery worker write at the same time,
# and a deferred transaction that later upgrades to a write lock fails instead of waiting.

#
# PostgreSQL goes through psycopg's connection pool (Django's OPTIONS["pool"]), one pool
# per process: daphne runs each request's sync code on a thread of its own, so
# persistent connections (CONN_MAX_AGE > 0) stayed with threads that were gone until the
# garbage collector closed them — dozens per process, PostgreSQL's limit reached — and
# without them every query opened a connection (~45 ms). A pooled connection goes back to
# the pool when the request (or database_sync_to_async call, or Celery task) ends.
# A process holds DB_POOL_MIN_SIZE idle connections and at most DB_POOL_MAX_SIZE; a
# thread that finds them all busy waits up to DB_POOL_TIMEOUT seconds. DB_POOL_MAX_SIZE=0
# turns the pool off (then CONN_MAX_AGE applies; with the pool it must stay 0).

DATABASE_URL = envstr("DATABASE_URL")
DB_POOL_MAX_SIZE = envint("DB_POOL_MAX_SIZE", 10, minimum=0)
if DATABASE_URL:
    CONN_MAX_AGE = envint("CONN_MAX_AGE", 0, minimum=0)
    if DB_POOL_MAX_SIZE and CONN_MAX_AGE:
        raise ImproperlyConfigured(
            "CONN_MAX_AGE must be 0 with the connection pool (DB_POOL_MAX_SIZE > 0): "
            "pooled connections are returned after each request, not kept"
        )
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True
        )
    }
    # psycopg prepares a statement a connection has run this often, but only from a
    # cursor that binds its parameters on the server: Django's own cursors bind on the
    # client and are never prepared. The one such cursor is the seats read of every move
    # (play/seat_query.py): its plan took PostgreSQL 1-3 ms, more than running it. Django
    # turns preparing off for poolers in front of PostgreSQL (PgBouncer's transaction
    # mode); behind one, DB_PREPARE_THRESHOLD=0 turns it off here too.
    DB_PREPARE_THRESHOLD = envint("DB_PREPARE_THRESHOLD", 5, minimum=0)
    postgresql = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    if postgresql and DB_PREPARE_THRESHOLD:
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["prepare_threshold"] = DB_PREPARE_THRESHOLD
    # PostgreSQL compiles a query to machine code (JIT) when the planner expects it to be
    # costly. With a site's tables grown and their statistics stale, a tournament's
    # results (~8 ms) were expected to be costly, and the compiling took 40 ms more. Every
    # query here is short, so connections ask for no JIT (DB_JIT=off, in the startup
    # packet). PgBouncer 1.20+ refuses such a startup option unless it lists "options"
    # in ignore_startup_parameters: behind one, DB_JIT=server leaves it to the server.
    DB_JIT = envstr("DB_JIT", "off")
    if DB_JIT not in ("off", "server"):
        raise ImproperlyConfigured(f"DB_JIT={DB_JIT!r}: 'off' (the default) or 'server'")
    if postgresql and DB_JIT == "off":
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["options"] = f"{options.get('options', '')} -c jit=off".strip()
    if DB_POOL_MAX_SIZE:
        DB_POOL_MIN_SIZE = envint("DB_POOL_MIN_SIZE", 1, minimum=0)
        if DB_POOL_MIN_SIZE > DB_POOL_MAX_SIZE:
            raise ImproperlyConfigured(
                f"DB_POOL_MIN_SIZE ({DB_POOL_MIN_SIZE}) must not exceed "
                f"DB_POOL_MAX_SIZE ({DB_POOL_MAX_SIZE})"
            )
        DB_POOL_TIMEOUT = envfloat("DB_POOL_TIMEOUT", 20.0)
        if not 0 < DB_POOL_TIMEOUT <= 3600:
            raise ImproperlyConfigured(f"DB_POOL_TIMEOUT={DB_POOL_TIMEOUT}: between 0 and 3600 s")
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": DB_POOL_MIN_SIZE,
            "max_size": DB_POOL_MAX_SIZE,
            "timeout": DB_POOL_TIMEOUT,
        }
else:
    SQLITE_PATH = Path(envstr("SQLITE_PATH", str(VAR_DIR / "db.sqlite3")))
    SQLITE_PATH.parent.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": envint("SQLITE_TIMEOUT", 20, minimum=1),
            },
            # A file, never in-memory: test helpers (a Celery worker, daphne) must share it.
            "TEST": {"NAME": str(SQLITE_PATH.with_name(f"test_{SQLITE_PATH.name}"))},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels -------------------------------------------------------------------------

REDIS_URL = envstr("REDIS_URL")
# Redis pub/sub ignores the database number: every name the layer uses starts with this,
# so that sites (and test runs) sharing a Redis server never hear each other.
CHANNEL_PREFIX = envstr(
    "CHANNEL_PREFIX", site_channel_prefix(REDIS_URL, DATABASES["default"]["NAME"])
)
if not re.fullmatch(r"[A-Za-z0-9._-]{1,40}", CHANNEL_PREFIX):  # it starts channel names
    raise ImproperlyConfigured(
        f"CHANNEL_PREFIX={CHANNEL_PREFIX!r}: 1 to 40 letters, digits, '.', '_' or '-'"
    )
if REDIS_URL:
    # Redis pub/sub: a group message is one PUBLISH, and each process hears its groups on
    # one subscription. The list-based RedisChannelLayer took three round trips and a
    # Lua script per group message and cost daphne about a third more CPU per move
    # (benchmarks/live_play_load.py). Groups are all this site uses the layer for.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Live play ----------------------------------------------------------------------
# Seconds between two moves of server-moved seats (bots, Random, Chaos) in a row, so a
# person can follow a bot-vs-bot game; a bot answering a person moves at once.
PLAY_BOT_PACE = envfloat("PLAY_BOT_PACE", 0.5)
# The longest a bot thinks over one move (less when the rules' turn time is short).
PLAY_BOT_SECONDS = envfloat("PLAY_BOT_SECONDS", 2.0)
# Each web process runs a timekeeper (timers, bot moves); off only in unit tests that
# drive ``play.services`` with their own clock.
PLAY_TIMEKEEPER = envbool("PLAY_TIMEKEEPER", True)

# --- Celery ---------------------------------------------------------------------------
# Broker: Redis when REDIS_URL is set, else kombu's file-system transport under
# CELERY_FS_ROOT (default var/celery). kombu writes messages to data_folder_out and reads
# from data_folder_in; every process here both sends and receives, so both point at the
# same "queue" folder. Results: django-celery-results ("django-db"), i.e. the database
# every web process and worker already shares.

CELERY_FS_ROOT = Path(envstr("CELERY_FS_ROOT", str(VAR_DIR / "celery")))
FS_BROKER_POLL = envfloat("FS_BROKER_POLL", 0.02)


def filesystem_broker_options(root: Path) -> dict:
    """Transport options of the file-system broker rooted at ``root`` (folders created)."""
    folders = {name: root / name for name in ("queue", "processed", "control")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folders["queue"]),
        "data_folder_out": str(folders["queue"]),
        "processed_folder": str(folders["processed"]),
        "store_processed": False,
        "control_folder": str(folders["control"]),
        # How often an idle worker looks for a message: a tournament's chains and its
        # finaliser wait for it (issue 36: 0.1 s was as long as a 300-game round); an
        # idle look is one directory listing, so 50 a second cost nothing worth saving.
        "polling_interval": FS_BROKER_POLL,
    }


if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # CELERY_KEY_PREFIX starts every key the broker writes: sites (and test runs) sharing
    # one Redis server then never take each other's tasks.
    CELERY_BROKER_TRANSPORT_OPTIONS = {}
    if key_prefix := envstr("CELERY_KEY_PREFIX"):
        if not re.fullmatch(r"[A-Za-z0-9._:-]{1,40}", key_prefix):
            raise ImproperlyConfigured(
                f"CELERY_KEY_PREFIX={key_prefix!r}: 1 to 40 letters, digits, '.', ':', '_' or '-'"
            )
        CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = key_prefix
else:
    CELERY_BROKER_URL = "filesystem://localhost//"  # a hostname keeps kombu quiet
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(CELERY_FS_ROOT)

CELERY_RESULT_BACKEND = "django-db"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# One message per worker process at a time on Redis. On the file-system broker, whose
# worker loop waits up to 2 s for the next message once its prefetch is full, take more
# at once (a tournament's chains, tournaments.chains.run_batches, and whatever
# else is queued).
CELERY_WORKER_PREFETCH_MULTIPLIER = 1 if REDIS_URL else 32
CELERY_TIMEZONE = "UTC"
# Learning (aiplayers) has a queue of its own, so that it never holds up tournaments on
# the default queue or analysis on theirs; ``make run``/``make worker`` serve all three.
CELERY_TASK_ROUTES = {"aiplayers.study": {"queue": "learning"}}

HEALTHZ_TIMEOUT = envfloat("HEALTHZ_TIMEOUT", 5.0)

# Tournaments: a batch (or the finaliser) not heard of for this long is sent again; the
# longest a bot thinks over one move in a tournament game.
TOURNAMENT_STALE_SECONDS = envfloat("TOURNAMENT_STALE_SECONDS", 60.0)
TOURNAMENT_BOT_SECONDS = envfloat("TOURNAMENT_BOT_SECONDS", 2.0)
# Replay frames (a view each) one request builds: the page's first, then each JSON page.
REPLAY_PAGE_FRAMES = envint("REPLAY_PAGE_FRAMES", 200, minimum=1)
# Compiled games each process keeps (least recently used dropped; issue 39).
GAME_CACHE_SIZE = envint("GAME_CACHE_SIZE", 64, minimum=1)
# The longest one tournament game may take (then it ends as a draw, reason "time-limit").
TOURNAMENT_GAME_SECONDS = envfloat("TOURNAMENT_GAME_SECONDS", 120.0)
# Worker processes one tournament runs on at once: messages sent when it starts (each
# starts a chain that claims the queued batches itself). ``make run``'s worker has 2.
TOURNAMENT_CHAINS = envint("TOURNAMENT_CHAINS", 2, minimum=1)
# Own bots (issue 26) in a tournament: the seconds a connected bot has for one move (then
# the rules' timeout applies), and how long a game waits for a bot that is not connected
# before it forfeits (reason "disconnect").
OWNBOT_MOVE_SECONDS = envfloat("OWNBOT_MOVE_SECONDS", 10.0)
OWNBOT_WAIT_SECONDS = envfloat("OWNBOT_WAIT_SECONDS", 120.0)
# About how many games with an own bot a worker plays at once (whole batches, on one thread):
# the bot answers by turn id, so its games need not wait for one another, and the turns
# they ask together go to it in one message (issue 36).
OWNBOT_GAMES_AT_ONCE = envint("OWNBOT_GAMES_AT_ONCE", 50, minimum=1)
# A batch of one own bot's games against Random is played by the web process that holds
# the bot's socket (tournaments.hosted_games), with Redis on PostgreSQL; off: every turn
# goes through the worker's mailbox.
OWNBOT_HOSTED = envbool("OWNBOT_HOSTED", True)
# A game's analysis (variants/analysis): its time budget on a worker, in seconds.
ANALYSIS_SECONDS = envfloat("ANALYSIS_SECONDS", 30.0)

# AI players (aiplayers): the package of the learning core, matches a learning task studies
# in one transaction, and the queue it runs on (its own: learning never holds up games).
AI_LEARN_PACKAGE = envstr("AI_LEARN_PACKAGE", "gamecore.learn")
AI_STUDY_CHUNK = envint("AI_STUDY_CHUNK", 20, minimum=1)

# --- Auth, i18n -----------------------------------------------------------------------

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "variants:games"
LOGOUT_REDIRECT_URL = "variants:home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files (served by whitenoise inside daphne) --------------------------------

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise warns on every request when it is missing
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve straight from the finders too, so `make run` works without `collectstatic`.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# --- Logging --------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # StreamHandler flushes each record; config/asgi.py also makes stdout and stderr
    # line-buffered, so a killed process has written every line it logged.
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}
