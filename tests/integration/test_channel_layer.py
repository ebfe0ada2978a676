"""The channel layer on a real Redis, as the production settings configure it.

Every websocket (a live table's, the standings') waits for its messages in the web process's
blocking pop of 5 s. With redis-py 8, whose reads time out after 5 s unless told otherwise, the
read of that pop's answer failed with "Timeout reading from" Redis, and the socket that was
waiting was closed: a quiet table or standings page lost its socket every few seconds.

A web process follows each tournament's standings once (web.consumers.ProcessFanOut), on a
channel of its own beside its sockets' channels, and must get each push while they wait.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import BROKER

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]

# In a process of its own: the settings read REDIS_URL once, when they are imported.
WAIT_QUIETLY = """
import asyncio
import django

django.setup()
from channels.layers import get_channel_layer


async def wait():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    try:
        await asyncio.wait_for(layer.receive(channel), {seconds})
    except asyncio.TimeoutError:
        print("nothing came, and the wait was still on")
    await layer.flush()


asyncio.run(wait())
"""


FAN_OUT = """
import asyncio
import django

django.setup()
from channels.layers import get_channel_layer

from web.consumers import fan_out
from web.standings_push import standings_group


class Page:
    def __init__(self):
        self.pushed = asyncio.Event()

    async def standings_stored(self, event):
        self.pushed.set()


async def scenario():
    layer = get_channel_layer()
    # A socket's own channel, waited on as Channels waits on it for every open socket.
    own = await layer.new_channel()
    waiting = asyncio.create_task(layer.receive(own))
    page = Page()
    await fan_out.join(layer, 987654, page)
    await asyncio.sleep(0.5)
    await layer.group_send(standings_group(987654), {{"type": "standings.stored"}})
    try:
        await asyncio.wait_for(page.pushed.wait(), {seconds})
        print("pushed")
    except asyncio.TimeoutError:
        print("not pushed while the socket waited")
    waiting.cancel()
    await fan_out.leave(layer, 987654, page)
    await layer.flush()


asyncio.run(scenario())
"""


def run_in_process(code: str) -> subprocess.CompletedProcess:
    env = dict(
        os.environ,
        REDIS_URL=BROKER,
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        LOG_LEVEL="WARNING",
    )
    env.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_process_gets_a_standings_push_while_its_sockets_wait_for_theirs():
    finished = run_in_process(FAN_OUT.format(seconds=5))
    assert finished.returncode == 0, finished.stderr[-2000:]
    assert finished.stdout.strip() == "pushed"


def test_a_socket_with_nothing_to_receive_keeps_waiting_past_the_blocking_pop():
    quiet_seconds = 12  # past two of channels_redis's 5 s pops
    finished = run_in_process(WAIT_QUIETLY.format(seconds=quiet_seconds))
    assert finished.returncode == 0, finished.stderr[-2000:]
    assert finished.stdout.strip() == "nothing came, and the wait was still on"
