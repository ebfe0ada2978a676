"""One Redis connection pool per process for the cache, through Django's own `pool_class` option.

Django keeps cache objects per async context, so under the ASGI server every request builds a
new `RedisCache`, a new client and with it a new connection pool: a fresh TCP connection to Redis
(and a package metadata lookup by redis-py) per request. That was a fifth of the time of a
standings poll under load. Django's Redis client makes its pools with `pool_class.from_url()`;
this class hands every client of the process the same pool for the same server and options.
redis-py's pools are thread-safe and notice a fork (Celery's worker processes get pools of their
own).
"""

from __future__ import annotations

import threading
from typing import Any

import redis


class SharedConnectionPool(redis.ConnectionPool):
    _pools: dict[tuple[str, str], SharedConnectionPool] = {}
    _pools_lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **options: Any) -> SharedConnectionPool:
        key = (url, repr(sorted(options.items())))
        with cls._pools_lock:
            pool = cls._pools.get(key)
            if pool is None:
                pool = cls._pools[key] = super().from_url(url, **options)
        return pool
