"""ASGI entry point: ``daphne config.asgi:application`` serves HTTP and websockets."""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Every line a server process writes goes out at once: after a hard kill, the last lines
# before it are in the log (a pipe or a file would otherwise hold them in a buffer).
for stream in (sys.stdout, sys.stderr):
    if hasattr(stream, "reconfigure"):
        stream.reconfigure(line_buffering=True)

# Set up Django before importing anything that touches models (consumers, auth).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config import autobahn_logs, daphne_frames, twisted_writes  # noqa: E402
from config.celery import prepare_to_send  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from ownbots.routing import BotRoute  # noqa: E402
from play.direct_frames import FrameWriters  # noqa: E402
from play.socketio_server import asgi_app as socketio_app  # noqa: E402
from play.timekeeper import StartTimekeeper, start_with_daphne  # noqa: E402
from tournaments.hosted_games import HostingBotConsumer  # noqa: E402

daphne_frames.install()  # a frame over daphne's 1 MiB: an error and close 1009, not a drop
autobahn_logs.install()  # no colouring of debug lines nobody logs, frame by frame
twisted_writes.install()  # a frame is sent as it is written, not a loop turn later

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # /ws/bot/: own bots, by token (ownbots.routing), hosting their tournament games
        # (tournaments.hosted_games); the rest: browsers, by session.
        "websocket": BotRoute(
            HostingBotConsumer.as_asgi(),
            AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        ),
    }
)

# /socket.io/: the tic-tac-toe server seed's protocol (play/socketio_server.py); the rest
# is Django and Channels. Timers and bot moves run in every web process (play/timekeeper.py).
# A consumer's text frames go straight to daphne's connection (play/direct_frames.py).
application = StartTimekeeper(FrameWriters(socketio_app(router)))
start_with_daphne()
prepare_to_send()  # the first tournament a visitor makes does not wait for it

# What is loaded by now lives as long as the process: spare the collector's full passes
# from walking it again and again (they stalled every socket of a busy process ~80 ms).
gc.freeze()
# Most of what a busy process allocates dies young (a move's rows, views and frames):
# look at the young generation every 10,000 allocations rather than 700, and the older
# ones half as often. In the live-play load benchmark daphne then spent about a third of
# the time collecting (~175 ms a minute instead of ~550), and the p99 was lower in four
# of six alternating runs and level in the other two.
gc.set_threshold(10_000, 20, 20)
