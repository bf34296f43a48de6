"""A bounded cache of compiled games (issue 39: kept for the life of the process, they
grew a server to over a gigabyte). A compiled game holds its tables and its legal-move
memos; the least recently used is dropped past ``maxsize`` (settable: ``resize``)."""

import threading
from collections import OrderedDict

DEFAULT_SIZE = 64  # compiled games kept per process (GAME_CACHE_SIZE on the site)


class LRU(OrderedDict):
    """A dict of at most ``maxsize`` entries; reading or writing one makes it the newest."""

    def __init__(self, maxsize: int = DEFAULT_SIZE):
        super().__init__()
        self.maxsize = max(1, int(maxsize))
        self._lock = threading.Lock()

    def get(self, key, default=None):
        with self._lock:
            if key not in self:
                return default
            self.move_to_end(key)
            return super().__getitem__(key)

    def __setitem__(self, key, value) -> None:
        with self._lock:
            super().__setitem__(key, value)
            self.move_to_end(key)
            while len(self) > self.maxsize:
                self.popitem(last=False)

    def resize(self, maxsize: int) -> None:
        with self._lock:
            self.maxsize = max(1, int(maxsize))
            while len(self) > self.maxsize:
                self.popitem(last=False)
