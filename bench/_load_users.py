"""Locust users of bench/load.py: phones reading the live standings, tables sending results.

Started by bench/load.py (the underscore keeps `make bench` from running it alone), which
seeds the tournament and passes its plan (a JSON file named by the LOAD_PLAN environment
variable): the tournament id and, per table, the API tokens of two of its players and the score
sheet to send.
"""

import json
import os
import random
import re

from gevent.lock import Semaphore
from locust import FastHttpUser, constant, task
from locust.exception import StopUser

PLAN = json.loads(open(os.environ["LOAD_PLAN"], encoding="utf-8").read())  # noqa: SIM115
VERSION = re.compile(r'standings/live/\?version=([0-9]*)"')
START_WINDOW = float(PLAN.get("submit_window_seconds", 30))

_tables = list(PLAN["tables"])
_tables_lock = Semaphore()


class StandingsReader(FastHttpUser):
    """A phone on the standings page: loads it, then polls once a second like the page does."""

    fixed_count = PLAN["readers"]
    wait_time = constant(1)

    def on_start(self) -> None:
        self.version = self._version_of(self._get("/standings/", "standings page"))

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

    @task(1)
    def reload(self) -> None:
        self.version = self._version_of(self._get("/standings/", "standings page"))


class TableSubmitter(FastHttpUser):
    """One table: a player sends the score sheet, a table-mate confirms it, once."""

    fixed_count = len(PLAN["tables"])
    wait_time = constant(3600)

    def on_start(self) -> None:
        with _tables_lock:
            self.table = _tables.pop() if _tables else None
        # Tables finish over the run, not all in the first second.
        self.delay = random.uniform(0, START_WINDOW)

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
