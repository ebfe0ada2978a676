"""The absolute addresses that QR codes, player cards and personal links carry.

PUBLIC_URL when it is set (the address phones in the club room open the site by), otherwise the
address the director's browser used for the page. A director who browses by 127.0.0.1 would
print codes no phone can open, so the pages that print them warn him and say what to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest

from core.network import is_local_only_host, lan_addresses


def site_root(request: HttpRequest) -> str:
    """scheme://host[:port] of the addresses given to players, without a slash at the end."""
    return settings.PUBLIC_URL or f"{request.scheme}://{request.get_host()}"


def absolute_url(request: HttpRequest, path: str) -> str:
    """The absolute address of a path of this site (from reverse()), as players get it."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL + path
    return request.build_absolute_uri(path)


@dataclass(frozen=True)
class LocalAddressWarning:
    """The codes carry `host`, which only this computer can open; `network_urls` are this page
    at the computer's addresses on its network (they work when the server listens on them)."""

    host: str
    port: str
    network_urls: list[str]

    @property
    def example_public_url(self) -> str:
        """What PUBLIC_URL would be: this computer on its network, or a typical address."""
        found = urlsplit(self.network_urls[0]).hostname if self.network_urls else None
        return f"http://{found or '192.168.1.20'}:{self.port}"


def local_address_warning(request: HttpRequest) -> LocalAddressWarning | None:
    """A warning when the printed addresses would be ones phones cannot open, else None."""
    host = urlsplit(site_root(request)).hostname or ""
    if not is_local_only_host(host):
        return None
    # The port the director's browser used (a container's mapped port, not the one inside).
    port = str(urlsplit(f"//{request.get_host()}").port or request.get_port())
    path = request.get_full_path()
    network_urls = [f"{request.scheme}://{address}:{port}{path}" for address in lan_addresses()]
    return LocalAddressWarning(host=host, port=port, network_urls=network_urls)
