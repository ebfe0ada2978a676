"""Health check of the web container: GET /healthz on the app itself, exit 0 only on a 200.

`python docker/healthcheck.py [port]` (8000 by default, the container's port).

The request names a host from ALLOWED_HOSTS, as the proxy's requests do, so Django's host check
accepts it; /healthz is exempt from the redirect to https (config/settings.py).

It waits DB_POOL_TIMEOUT seconds and 5 more: with PostgreSQL down, a web process waits that long
for a pooled connection before /healthz answers 503 naming the database, and a shorter wait would
only say "timed out". The timeouts of the container's check (Dockerfile, compose.yaml) are longer
still. The first line printed names what failed, for `docker inspect` and `compose ps`.
"""

import json
import os
import sys
import urllib.error
import urllib.request

# config/settings.py's default for the same variable.
DEFAULT_POOL_TIMEOUT_SECONDS = 10.0
MARGIN_SECONDS = 5.0


def allowed_host() -> str:
    for host in os.environ.get("ALLOWED_HOSTS", "").split(","):
        host = host.strip().lstrip(".")  # ".club.example" allows club.example too
        if host and host != "*":
            return host
    return "localhost"


def timeout_seconds() -> float:
    try:
        pool_timeout = float(os.environ.get("DB_POOL_TIMEOUT") or DEFAULT_POOL_TIMEOUT_SECONDS)
    except ValueError:
        pool_timeout = DEFAULT_POOL_TIMEOUT_SECONDS
    return pool_timeout + MARGIN_SECONDS


def failed_dependencies(body: str) -> list[str]:
    """The dependencies /healthz reported as failed (false), in its order."""
    try:
        report = json.loads(body)
    except ValueError:
        return []
    if not isinstance(report, dict):
        return []
    return [name for name, answer in report.items() if answer is False]


def main(port: str = "8000") -> int:
    url = f"http://127.0.0.1:{port}/healthz"
    request = urllib.request.Request(url, headers={"Host": allowed_host()})
    timeout = timeout_seconds()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            print(response.read().decode())
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as error:  # 503: the body says which dependency is down
        body = error.read().decode(errors="replace")
        failed = failed_dependencies(body)
        what = ", ".join(failed) if failed else "the app"
        print(f"unhealthy: {what} (HTTP {error.code})")
        print(body)
    except TimeoutError:
        print(f"unhealthy: the web server did not answer within {timeout:g} s")
    except OSError as error:  # refused: no web process listens (yet)
        reason = getattr(error, "reason", error)
        print(f"unhealthy: the web server did not answer ({reason})")
    return 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
