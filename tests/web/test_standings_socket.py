"""The standings socket: a public tournament's new standings reach its pages once, when stored.

As in tests/gameplay/test_consumers.py, consumers run in asgiref's event loop via
`async_to_sync` and their database calls come back to the test's thread, so the tests use
transactional databases; the channel layer is the in-memory one of a single process.
"""

from __future__ import annotations

import gzip
import json
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from core.sockets import MAX_FRAME_BYTES
from scoring import selectors as scoring_selectors
from scoring.models import StandingsSnapshot
from tests.factories import UserFactory, enter_confirmed_result
from tests.web.test_public_pages import make_tournament, publish_next_round
from tournaments.models import Tournament
from web import tasks
from web.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10
CLOSE_FORBIDDEN = 4403
VERSION = re.compile(r'data-standings-version="([0-9]+)"')


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def socket(tournament_id: int, query: str = "") -> WebsocketCommunicator:
    path = f"/ws/tournaments/{tournament_id}/standings/"
    return WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"{path}?{query}")


def whole_app_socket(tournament_id: int, origin: str) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"host", b"testserver"), (b"origin", origin.encode())]
    path = f"/ws/tournaments/{tournament_id}/standings/"
    return WebsocketCommunicator(application, path, headers=headers)


def finish(round_) -> None:
    for table in round_.tables.order_by("number"):
        enter_confirmed_result(table, seed=table.pk)


def latest_version(tournament) -> str:
    return str(scoring_selectors.standings_latest_version(tournament) or "")


async def standings_from(communicator: WebsocketCommunicator) -> str:
    """The standings block of the next frame (the gzip of public/_standings_live.html)."""
    frame = await communicator.receive_output(timeout=TIMEOUT)
    assert frame["type"] == "websocket.send", frame
    assert frame.get("bytes"), frame
    return gzip.decompress(frame["bytes"]).decode("utf-8")


@pytest.fixture
def tournament():
    director = UserFactory()
    made = make_tournament(director, players=8)
    finish(publish_next_round(director, made))
    second = publish_next_round(director, made)
    return made, second


def test_a_viewer_gets_the_new_standings_once_when_results_are_confirmed(tournament):
    made, second = tournament
    shown = latest_version(made)

    async def scenario():
        viewer = socket(made.pk, f"version={shown}")
        connected, _ = await viewer.connect(timeout=TIMEOUT)
        assert connected
        # The page shows the latest standings: nothing is sent while nothing changes.
        assert await viewer.receive_nothing(timeout=0.2)
        await database_sync_to_async(finish)(second)
        blocks = [await standings_from(viewer)]
        # Each confirmation stores a snapshot (the embedded mode computes at once).
        while not await viewer.receive_nothing(timeout=0.3):
            blocks.append(await standings_from(viewer))
        await viewer.disconnect()
        return blocks

    blocks = async_to_sync(scenario)()
    made.refresh_from_db()
    newest = latest_version(made)
    assert newest != shown
    assert f'data-standings-version="{newest}"' in blocks[-1]
    assert "Гравець 1" in blocks[-1]
    # At most one frame per snapshot, never an older one after a newer (a viewer that is
    # behind gets the latest at once, so two quick snapshots may come as one frame).
    versions = [int(VERSION.search(block).group(1)) for block in blocks]
    assert versions == sorted(set(versions))
    assert len(versions) <= StandingsSnapshot.objects.filter(tournament=made).count() - 1


def test_a_worker_renders_the_new_standings_and_every_viewer_gets_the_same_block(
    tournament, monkeypatch
):
    made, second = tournament
    shown = latest_version(made)

    async def scenario():
        viewers = [socket(made.pk, f"version={shown}") for _ in range(3)]
        for viewer in viewers:
            assert (await viewer.connect(timeout=TIMEOUT))[0]
        # Results land without a push, as when a worker computed them; then the worker's
        # task renders the block into the cache and pushes it.
        with monkeypatch.context() as patch:
            patch.setattr(tasks, "push_standings", lambda state: None)
            await database_sync_to_async(finish)(second)
        for viewer in viewers:
            assert await viewer.receive_nothing(timeout=0.1)
        await database_sync_to_async(tasks.prerender_standings)(made.pk)
        received = [await viewer.receive_output(timeout=TIMEOUT) for viewer in viewers]
        for viewer in viewers:
            await viewer.disconnect()
        return received

    frames = async_to_sync(scenario)()
    assert len({frame["bytes"] for frame in frames}) == 1
    block = gzip.decompress(frames[0]["bytes"]).decode("utf-8")
    assert f'data-standings-version="{latest_version(made)}"' in block


def test_a_process_follows_a_tournament_once_however_many_of_its_sockets_watch(tournament):
    from channels.layers import get_channel_layer

    from web.standings_push import standings_group

    made, second = tournament
    shown = latest_version(made)
    layer = get_channel_layer()
    group = standings_group(made.pk)

    def members() -> int:
        return len(layer.groups.get(group, {}))

    async def scenario():
        viewers = [socket(made.pk, f"version={shown}") for _ in range(5)]
        for viewer in viewers:
            assert (await viewer.connect(timeout=TIMEOUT))[0]
        # One member of the group for the five: a push is one message, not five.
        joined = members()
        await database_sync_to_async(finish)(second)
        received = [await standings_from(viewer) for viewer in viewers]
        for viewer in viewers[:4]:
            await viewer.disconnect()
        still = members()
        await viewers[4].disconnect()
        return joined, received, still, members()

    joined, received, still, after = async_to_sync(scenario)()
    assert joined == 1
    assert all("Гравець 1" in block for block in received)
    # The process stays in the group while one socket watches, and leaves with the last.
    assert (still, after) == (1, 0)


def test_a_page_that_reconnects_catches_up_and_the_wall_gets_a_notice(tournament):
    made, _second = tournament

    async def scenario():
        behind = socket(made.pk, "version=")
        assert (await behind.connect(timeout=TIMEOUT))[0]
        block = await standings_from(behind)
        wall = socket(made.pk, "version=&notice=1")
        assert (await wall.connect(timeout=TIMEOUT))[0]
        notice = await wall.receive_json_from(timeout=TIMEOUT)
        for communicator in (behind, wall):
            await communicator.disconnect()
        return block, notice

    block, notice = async_to_sync(scenario)()
    assert f'data-standings-version="{latest_version(made)}"' in block
    assert notice == {"type": "standings", "version": latest_version(made)}


def test_a_private_tournaments_socket_is_refused():
    director = UserFactory()
    private = make_tournament(director, players=8, is_public=False)
    finish(publish_next_round(director, private))

    async def scenario():
        viewer = socket(private.pk, "version=")
        connected, code = await viewer.connect(timeout=TIMEOUT)
        missing = socket(private.pk + 1000, "version=")
        missing_connected, missing_code = await missing.connect(timeout=TIMEOUT)
        return connected, code, missing_connected, missing_code

    assert async_to_sync(scenario)() == (False, CLOSE_FORBIDDEN, False, CLOSE_FORBIDDEN)


def test_a_tournament_made_private_is_pushed_to_nobody(tournament):
    made, second = tournament
    shown = latest_version(made)

    async def scenario():
        viewer = socket(made.pk, f"version={shown}")
        assert (await viewer.connect(timeout=TIMEOUT))[0]
        await database_sync_to_async(Tournament.objects.filter(pk=made.pk).update)(is_public=False)
        await database_sync_to_async(finish)(second)
        closed = await viewer.receive_output(timeout=TIMEOUT)
        return closed

    closed = async_to_sync(scenario)()
    assert closed == {"type": "websocket.close", "code": CLOSE_FORBIDDEN}


def test_the_socket_opens_only_from_the_sites_own_pages(tournament):
    made, _second = tournament

    async def scenario():
        own = whole_app_socket(made.pk, "http://testserver")
        opened = (await own.connect(timeout=TIMEOUT))[0]
        await own.disconnect()
        other = whole_app_socket(made.pk, "http://evil.example")
        refused = (await other.connect(timeout=TIMEOUT))[0]
        return opened, refused

    assert async_to_sync(scenario)() == (True, False)


def test_bad_frames_get_an_error_and_a_huge_one_closes_the_socket(tournament):
    made, _second = tournament
    shown = latest_version(made)

    async def scenario():
        viewer = socket(made.pk, f"version={shown}")
        assert (await viewer.connect(timeout=TIMEOUT))[0]
        answers = []
        for frame in ("not json", "[1, 2]", json.dumps({"type": "act"}), "[" * 100_000):
            await viewer.send_to(text_data=frame[: MAX_FRAME_BYTES - 1])
            answers.append(await viewer.receive_json_from(timeout=TIMEOUT))
        await viewer.send_to(bytes_data=b"\x00\xff")
        answers.append(await viewer.receive_json_from(timeout=TIMEOUT))
        # A sync sends the latest standings again.
        await viewer.send_to(text_data=json.dumps({"type": "sync"}))
        synced = await standings_from(viewer)
        await viewer.send_to(text_data="x" * (MAX_FRAME_BYTES + 1))
        too_big = await viewer.receive_json_from(timeout=TIMEOUT)
        closed = await viewer.receive_output(timeout=TIMEOUT)
        return answers, synced, too_big, closed

    answers, synced, too_big, closed = async_to_sync(scenario)()
    assert {answer["type"] for answer in answers} == {"error"}
    assert f'data-standings-version="{shown}"' in synced
    assert too_big["type"] == "error"
    assert closed == {"type": "websocket.close", "code": 4413}


def test_an_older_snapshot_pushed_after_a_newer_one_is_not_sent(tournament):
    made, _second = tournament
    shown = latest_version(made)

    async def scenario():
        from channels.layers import get_channel_layer

        from web.standings_push import standings_group

        viewer = socket(made.pk, f"version={shown}")
        assert (await viewer.connect(timeout=TIMEOUT))[0]
        # Two workers pushed two snapshots; the older one's message came last.
        older = {"type": "standings.stored", "version": str(int(shown) - 1), "public": True}
        await get_channel_layer().group_send(standings_group(made.pk), older | {"columns": ""})
        nothing = await viewer.receive_nothing(timeout=0.3)
        await viewer.disconnect()
        return nothing

    assert async_to_sync(scenario)()


def test_a_socket_opening_while_a_poll_kept_an_older_version_still_gets_the_last_push(tournament):
    from scoring import standings_cache
    from web.presenters.live_standings import columns_text

    made, _second = tournament
    latest = latest_version(made)
    older = str(int(latest) - 1)
    # A poll read the version just before the snapshot was stored and kept it for a second;
    # the snapshot's push went out before this socket joined.
    standings_cache.remember_poll_state(made.pk, latest=older, columns=columns_text(made))
    standings_cache.remember_pushed(made.pk, latest=latest, columns=columns_text(made))

    async def scenario():
        viewer = socket(made.pk, f"version={older}")
        assert (await viewer.connect(timeout=TIMEOUT))[0]
        block = await standings_from(viewer)
        await viewer.disconnect()
        return block

    assert f'data-standings-version="{latest}"' in async_to_sync(scenario)()
