"""Which addresses of this machine the phones in a club room can open, and which they cannot.

No Django here: the settings use it before Django is set up (ALLOWED_HOSTS in development), and
so do `manage.py demo` (the addresses `make run` serves) and the director's pages (the warning
that the QR codes carry an address only this computer can open).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

# Any address outside this machine will do: connecting a UDP socket sends nothing, it only asks
# the routing table which of the machine's addresses would speak to it (TEST-NET-2, RFC 5737).
_ROUTE_PROBE = ("198.51.100.1", 9)
_ALL_INTERFACES = {"0.0.0.0", "::", ""}


def is_local_only_host(host: str) -> bool:
    """True for a host name or IP address that means "this machine" and nothing else: a phone
    that opens it reaches itself, never the computer that printed it."""
    name = host.strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def is_local_only_url(url: str) -> bool:
    """True when the URL's host is one only this machine can open (see is_local_only_host)."""
    return is_local_only_host(urlsplit(url).hostname or "")


def lan_addresses() -> list[str]:
    """This machine's IPv4 address on its network (the one its default route uses), or none when
    it has no network; never a loopback or link-local address."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            found = probe.getsockname()[0]
    except OSError:
        return []
    address = ipaddress.ip_address(found)
    if address.is_loopback or address.is_unspecified or address.is_link_local:
        return []
    return [str(address)]


@dataclass(frozen=True)
class ListenAddress:
    """Where a development server listens, as `runserver` takes it: "8000", "0.0.0.0:8000",
    "[::]:8000" or "192.168.1.20:8000"."""

    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> ListenAddress:
        text = text.strip()
        if text.isdigit():
            return cls(host="127.0.0.1", port=_port(text, text))
        host, separator, port = text.rpartition(":")
        if not separator or not port.isdigit():
            raise ValueError(f"{text!r} is not an address such as 127.0.0.1:8000 or 0.0.0.0:8000")
        return cls(host=host.strip("[]"), port=_port(port, text))

    @property
    def all_interfaces(self) -> bool:
        return self.host in _ALL_INTERFACES

    @property
    def reachable_from_network(self) -> bool:
        """Other machines can connect: every interface, or an address that is not loopback."""
        return self.all_interfaces or not is_local_only_host(self.host)

    def local_url(self) -> str:
        """The address to open on this computer."""
        if self.all_interfaces:
            host = "[::1]" if ":" in self.host else "127.0.0.1"
        else:
            host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def room_urls(self, lan: list[str]) -> list[str]:
        """The addresses phones in the room can open: every LAN address when the server listens
        on all of them, its own address when that is one, else none."""
        if self.all_interfaces:
            return [f"http://{address}:{self.port}/" for address in lan]
        if is_local_only_host(self.host):
            return []
        return [self.local_url()]


def _port(digits: str, text: str) -> int:
    port = int(digits)
    if not 0 < port < 65536:
        raise ValueError(f"{text!r}: the port must be between 1 and 65535")
    return port
