"""Health check of the web container: GET /healthz on the app itself, exit 0 only on a 200.

`python docker/healthcheck.py [port]` (8000 by default, the container's port).

The request names a host from ALLOWED_HOSTS, as the proxy's requests do, so Django's host check
accepts it; /healthz is exempt from the redirect to https (config/settings.py).
"""

import os
import sys
import urllib.error
import urllib.request


def allowed_host() -> str:
    for host in os.environ.get("ALLOWED_HOSTS", "").split(","):
        host = host.strip().lstrip(".")  # ".club.example" allows club.example too
        if host and host != "*":
            return host
    return "localhost"


def main(port: str = "8000") -> int:
    url = f"http://127.0.0.1:{port}/healthz"
    request = urllib.request.Request(url, headers={"Host": allowed_host()})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            print(response.read().decode())
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as error:  # 503: the body says which dependency is down
        print(error.code, error.read().decode())
    except OSError as error:
        print(error)
    return 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
