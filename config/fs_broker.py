"""kombu's file-system broker with messages written atomically (the embedded shape's
broker; ``config.celery`` makes ``filesystem://`` name this transport).

kombu writes a message by creating its file in the queue folder and then writing it;
a worker polling the folder between the two moves the empty file away, fails to decode
it, and its main process dies (seen when a tournament's chain sent a message while
the worker polled: ``JSONDecodeError: Expecting value``). Here the message is written
under a name the poller does not read (no ``.<queue>.msg``) and renamed into place, one
atomic step on a POSIX file system.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".partial-{uuid.uuid4()}")
        try:
            with open(partial, "wb", buffering=0) as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as error:
            raise filesystem.ChannelError(f"Cannot add file {final!r} to directory") from error


class Transport(filesystem.Transport):
    Channel = Channel
