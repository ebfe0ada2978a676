"""One Redis connection pool, and one client on it, per process for the cache.

Django keeps cache objects per async context, so under the ASGI server every request builds a
new `RedisCache`, a new client and with it a new connection pool: a fresh TCP connection to Redis
(and a package metadata lookup by redis-py) per request. That was a fifth of the time of a
standings poll under load. Django's Redis client makes its pools with `pool_class.from_url()`;
this class hands every client of the process the same pool for the same server and options.
redis-py's pools are thread-safe and notice a fork (Celery's worker processes get pools of their
own).

Django's Redis cache also makes a new redis-py client (`redis.Redis`) for every cache operation,
whose construction (its table of reply parsers) cost more than the GET it was made for: 6 % of
a web process's time under the load of a big event's standings. `RedisCache` below keeps one
client per pool instead; a client on a pool is thread-safe (each command borrows a connection).
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from django.core.cache.backends import redis as django_redis


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


class SharedClientRedisCacheClient(django_redis.RedisCacheClient):
    """Django's client, answering every operation with the same redis-py client per pool."""

    _clients: dict[redis.ConnectionPool, redis.Redis] = {}

    def get_client(self, key=None, *, write=False) -> redis.Redis:
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """Django's Redis cache with the client above (settings.CACHES's backend)."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
