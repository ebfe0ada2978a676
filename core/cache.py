"""The Redis cache with one connection pool per process.

Django keeps cache objects per async context, so under the ASGI server every request builds a
new `RedisCache`, a new client and with it a new connection pool: a fresh TCP connection to Redis
(and a package metadata lookup by redis-py) per request. That was a fifth of the time of a
standings poll under load. Here the client, and so its pool, is shared by every cache object of
the process with the same servers and options. redis-py's pools are thread-safe and notice a
fork (Celery's worker processes get pools of their own).
"""

import threading

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_clients: dict[tuple, object] = {}
_clients_lock = threading.Lock()


class SharedPoolRedisCache(RedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
