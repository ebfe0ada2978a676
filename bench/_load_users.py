"""Locust users of bench/load.py: phones reading the live standings, tables sending results.

Started by bench/load.py (the underscore keeps `make bench` from running it alone), which
seeds the tournament and passes its plan (a JSON file named by the LOAD_PLAN environment
variable): the tournament id, how many viewers of each kind, and per table the API tokens of two
of its players and the score sheet to send.

Two kinds of viewers: those whose page keeps the standings socket open (web/consumers.py), as
a current browser does, and those that poll once a second, as the page does when the socket
cannot open (a socket viewer whose socket cannot open or drops polls so too, and tries again
after a pause of 1 to 30 s, as public.js does). The socket viewers speak the websocket
protocol through wsproto (sans-IO, so it runs on Locust's gevent sockets) with
permessage-deflate offered, as browsers offer it. What they measure is reported as requests of
type "WS": opening the socket (the handshake), the catch-up a socket opened on older standings
gets, and how long after its snapshot was stored a pushed table arrives. A table counts as a
catch-up only if it was out before the socket opened (another socket of this process had been
sent it): one stored just before the opening but pushed after it (a worker was still rendering
it) reaches the socket with the push, and is timed as a push, from when it was stored. When
Locust quits each of its processes writes which version each of its viewers shows to a file
beside the plan (bench/load.py compares them with the latest snapshot).

Locust may run in several processes (`--processes`, forked after this module is loaded): what
they share goes through files in the plan's folder, each written once with O_EXCL: which table
a process took (a table is sent once, whichever process has its user), and when a version
first reached a socket of any process.
"""

import contextlib
import json
import os
import random
import re
import socket
import time
import zlib
from pathlib import Path
from urllib.parse import urlsplit

from gevent.lock import Semaphore
from locust import FastHttpUser, constant, events, task
from locust.exception import StopUser
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)
from wsproto.extensions import PerMessageDeflate

PLAN = json.loads(open(os.environ["LOAD_PLAN"], encoding="utf-8").read())  # noqa: SIM115
VERSION = re.compile(r'standings/live/\?version=([0-9]*)"')
# The opening tag of the live block, which names its version and when it was stored.
HEAD_BYTES = 1024
BLOCK_VERSION = re.compile(rb'data-standings-version="([0-9]*)"')
COMPUTED_AT = re.compile(rb'data-computed-at="([0-9.]+)"')
START_WINDOW = float(PLAN.get("submit_window_seconds", 30))
# The tables start sending this long after Locust started (once every viewer is there).
SUBMIT_AT = time.time() + float(PLAN.get("submit_after_seconds", 0))
# How long a socket viewer stays before the phone reloads the page or, woken from sleep, opens
# the socket again (exponential, this mean).
DWELL_SECONDS = float(PLAN.get("socket_dwell_seconds", 60))

# The files the processes share (see above), in the plan's folder.
SHARED = Path(os.environ["LOAD_PLAN"]).parent
SHOWN_FILES = "shown-*.json"

# The version each viewer of this process shows, by viewer: written out when Locust quits.
SHOWN: dict[int, tuple[str, str]] = {}
# When a version first reached a socket of any process (about when the server sent it out),
# as far as this process has looked it up.
RELEASED: dict[str, float] = {}

_tables = list(PLAN["tables"])
_tables_lock = Semaphore()


def claim_once(name: str, content: str) -> str:
    """Write the shared file `name` if no process has yet; what it holds either way."""
    path = SHARED / name
    try:
        descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        for _ in range(100):  # the first process may be writing it this very moment
            written = path.read_text(encoding="utf-8")
            if written:
                return written
            time.sleep(0.001)
        raise
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(content)
    return content


def released_at(version: str) -> float:
    """When `version` first reached a socket of any Locust process."""
    if version not in RELEASED:
        RELEASED[version] = float(claim_once(f"released-{version}", repr(time.time())))
    return RELEASED[version]


def next_table() -> dict | None:
    """A table no process has taken yet (each process holds the whole plan)."""
    with _tables_lock:
        while _tables:
            table = _tables.pop()
            mine = str(os.getpid())
            if claim_once(f"table-{table['id']}", mine) == mine:
                return table
    return None


class StandingsReader(FastHttpUser):
    """A phone on the standings page without the socket: loads it, then polls once a second
    like the page does."""

    fixed_count = PLAN.get("pollers", PLAN.get("readers", 0))
    wait_time = constant(1)

    def on_start(self) -> None:
        self.version = self._version_of(self._get("/standings/", "standings page"))
        SHOWN[id(self)] = ("poll", self.version)

    def _get(self, suffix: str, name: str, expect=(200,)) -> str:
        path = f"/tournaments/{PLAN['tournament']}{suffix}"
        with self.client.get(path, name=name, catch_response=True) as response:
            if response.status_code not in expect:
                response.failure(f"status {response.status_code}")
            elif response.status_code == 200 and name.endswith("poll"):
                # Counted apart: a poll that brings new standings, not "nothing new".
                response.request_meta["name"] = f"{name} (new standings)"
            return response.text or ""

    @staticmethod
    def _version_of(html: str) -> str:
        found = VERSION.search(html)
        return found.group(1) if found else ""

    @task(9)
    def poll(self) -> None:
        html = self._get(
            f"/standings/live/?version={self.version}", "standings live poll", expect=(200, 204)
        )
        if html:
            self.version = self._version_of(html)
            SHOWN[id(self)] = ("poll", self.version)

    @task(1)
    def reload(self) -> None:
        self.version = self._version_of(self._get("/standings/", "standings page"))
        SHOWN[id(self)] = ("poll", self.version)


def report(name: str, started: float, *, length: int = 0, exception=None) -> None:
    """One measurement of the socket viewers, as Locust records a request."""
    events.request.fire(
        request_type="WS",
        name=name,
        response_time=(time.perf_counter() - started) * 1000,
        response_length=length,
        exception=exception,
        context={},
    )


def report_ms(name: str, milliseconds: float, *, length: int = 0) -> None:
    events.request.fire(
        request_type="WS",
        name=name,
        response_time=milliseconds,
        response_length=length,
        exception=None,
        context={},
    )


class SocketClosed(Exception):
    """The server closed the standings socket (or the connection broke)."""


class StandingsSocket:
    """A browser's websocket to the standings, on a plain (gevent) socket with wsproto."""

    def __init__(self, base_url: str, path: str) -> None:
        address = urlsplit(base_url)
        self.sock = socket.create_connection((address.hostname, address.port), timeout=10)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.pending: list[bytes] = []
        request = Request(
            host=address.netloc,
            target=path,
            extra_headers=[(b"origin", f"{address.scheme}://{address.netloc}".encode())],
            extensions=[PerMessageDeflate()],
        )
        self.sock.sendall(self.ws.send(request))
        while True:
            for event in self._events():
                if isinstance(event, AcceptConnection):
                    return
                if isinstance(event, RejectConnection):
                    raise SocketClosed(f"refused with status {event.status_code}")

    def _events(self):
        data = self.sock.recv(65536)
        if not data:
            raise SocketClosed("connection closed")
        self.ws.receive_data(data)
        return list(self.ws.events())

    def frames(self, timeout: float):
        """The whole binary messages received within `timeout` seconds (maybe none)."""
        self.sock.settimeout(max(0.01, timeout))
        try:
            events_ = self._events()
        except TimeoutError:
            return []
        except OSError as error:
            raise SocketClosed(str(error)) from error
        messages = []
        for event in events_:
            if isinstance(event, Ping):
                self.sock.sendall(self.ws.send(event.response()))
            elif isinstance(event, CloseConnection):
                raise SocketClosed(f"closed by the server: {event.code}")
            elif isinstance(event, BytesMessage):
                self.pending.append(bytes(event.data))
                if event.message_finished:
                    messages.append(b"".join(self.pending))
                    self.pending = []
            elif isinstance(event, TextMessage):
                messages.append(event.data.encode("utf-8"))
        return messages

    def close(self) -> None:
        # The socket may be gone already; closing it is all that is left to do.
        with contextlib.suppress(Exception):
            self.sock.sendall(self.ws.send(CloseConnection(code=1000)))
        self.sock.close()


class StandingsSocketViewer(FastHttpUser):
    """A phone on the standings page with the socket open: loads the page, opens the socket,
    and shows each table pushed to it. Now and then the phone reloads the page or, woken from
    sleep, opens the socket again with the version it shows (the server sends what it missed)."""

    fixed_count = PLAN.get("socket_viewers", 0)
    wait_time = constant(0)

    def on_start(self) -> None:
        self.socket: StandingsSocket | None = None
        self.version = ""
        # When the socket may be tried again, and the pause after the next failure (seconds).
        self.retry_at = 0.0
        self.retry = 1.0
        self.load_page()
        self.open_socket()

    def on_stop(self) -> None:
        if self.socket is not None:
            self.socket.close()

    def load_page(self) -> None:
        path = f"/tournaments/{PLAN['tournament']}/standings/"
        with self.client.get(path, name="standings page", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            found = VERSION.search(response.text or "")
            self.version = found.group(1) if found else ""
        SHOWN[id(self)] = ("socket", self.version)

    def open_socket(self) -> None:
        path = f"/ws/tournaments/{PLAN['tournament']}/standings/?version={self.version}"
        self.opened_at = time.time()
        started = time.perf_counter()
        try:
            self.socket = StandingsSocket(self.host, path)
        except (OSError, SocketClosed) as error:
            self.socket = None
            report("standings socket open", started, exception=error)
            self.back_off()
            return
        report("standings socket open", started)
        self.retry = 1.0
        self.open_started = started

    def show(self, frame: bytes) -> None:
        # The block's version and time stand in its first tag: only that much is decompressed.
        # A phone unpacks its own 70 KB on its own processor; this one process stands in for
        # 900 phones at each push, and unpacking every frame whole was most of its work there,
        # which delayed its other users' timings (ms of Locust's, not the server's).
        html = zlib.decompressobj(wbits=31).decompress(frame, HEAD_BYTES)
        found = BLOCK_VERSION.search(html)
        computed = COMPUTED_AT.search(html)
        if found is None:
            return
        pushed = found.group(1).decode()
        if self.version and (not pushed or int(pushed) <= int(self.version)):
            # As the page does: a table older than the one shown is not shown.
            report_ms("standings push older than shown (ignored)", 0, length=len(frame))
            return
        self.version = pushed
        SHOWN[id(self)] = ("socket", self.version)
        stored_at = float(computed.group(1)) if computed else 0.0
        released = released_at(pushed)
        if stored_at < self.opened_at and released < self.opened_at:
            # Stored before this socket opened: the catch-up of a page that was behind.
            report("standings socket catch-up", self.open_started, length=len(frame))
        else:
            report_ms(
                "standings push (stored to shown)",
                (time.time() - stored_at) * 1000,
                length=len(frame),
            )

    @task
    def watch(self) -> None:
        """Stay on the page for a while, then reload it or (woken from sleep) reconnect.

        As public.js does: while the socket is closed the page polls once a second, and it
        tries the socket again after a pause that doubles from 1 s to 30 s (with jitter).
        """
        until = time.monotonic() + random.expovariate(1 / DWELL_SECONDS)
        while time.monotonic() < until:
            if self.socket is None and time.monotonic() >= self.retry_at:
                self.open_socket()
            if self.socket is None:
                self.poll()
                time.sleep(1)
                continue
            try:
                for frame in self.socket.frames(until - time.monotonic()):
                    self.show(frame)
            except SocketClosed as error:
                events.request.fire(
                    request_type="WS",
                    name="standings socket dropped",
                    response_time=0,
                    response_length=0,
                    exception=error,
                    context={},
                )
                self.socket = None
                self.back_off()
        if self.socket is not None:
            self.socket.close()
            self.socket = None
        if random.random() < 0.5:
            self.load_page()  # a new page starts with a pause of 1 s again
            self.retry, self.retry_at = 1.0, 0.0
        if time.monotonic() >= self.retry_at:
            self.open_socket()

    def back_off(self) -> None:
        self.retry_at = time.monotonic() + self.retry * (0.5 + random.random())
        self.retry = min(self.retry * 2, 30.0)

    def poll(self) -> None:
        path = f"/tournaments/{PLAN['tournament']}/standings/live/?version={self.version}"
        name = "standings live poll"
        with self.client.get(path, name=name, catch_response=True) as response:
            if response.status_code not in (200, 204):
                response.failure(f"status {response.status_code}")
                return
            if response.status_code == 200:
                response.request_meta["name"] = f"{name} (new standings)"
                found = VERSION.search(response.text or "")
                if found:
                    self.version = found.group(1)
                    SHOWN[id(self)] = ("socket", self.version)


@events.quitting.add_listener
def _write_shown(environment, **kwargs) -> None:
    if SHOWN:  # a process with viewers (not the master of several)
        path = SHARED / SHOWN_FILES.replace("*", str(os.getpid()))
        path.write_text(json.dumps(list(SHOWN.values())), encoding="utf-8")


class TableSubmitter(FastHttpUser):
    """One table: a player sends the score sheet, a table-mate confirms it, once."""

    fixed_count = len(PLAN["tables"])
    wait_time = constant(3600)

    def on_start(self) -> None:
        self.table = next_table()
        # Tables finish over the run, not all in the first second.
        self.delay = max(0.0, SUBMIT_AT - time.time()) + random.uniform(0, START_WINDOW)

    @task
    def submit_and_confirm(self) -> None:
        if self.table is None:
            raise StopUser
        import gevent

        gevent.sleep(self.delay)
        table = self.table
        with self.client.post(
            f"/api/tables/{table['id']}/results/",
            json={"sheet": table["sheet"], "expected_version": 0},
            headers={"Authorization": f"Token {table['submitter']}"},
            name="submit result",
            catch_response=True,
        ) as response:
            if response.status_code != 201:
                response.failure(f"status {response.status_code}: {response.text[:200]}")
                raise StopUser
        with self.client.post(
            f"/api/tables/{table['id']}/results/1/confirm/",
            json={},
            headers={"Authorization": f"Token {table['confirmer']}"},
            name="confirm result",
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}: {response.text[:200]}")
        raise StopUser
