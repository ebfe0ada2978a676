"""Requests generated from the API's own OpenAPI schema never get a server error or an answer
that breaks the schema, whoever sends them: a director or a player, each with his token.

Schemathesis generates valid and invalid requests for every operation of the schema that
drf-spectacular builds in process and sends them to the project's WSGI application, in process,
against the test database holding the world of tests/security/conftest.py. The checks: no 5xx,
every status code and content type documented, every body as the schema describes it. Each
request runs in a savepoint that is rolled back, so every example starts from the same data.
"""

from __future__ import annotations

import json

import hypothesis
import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application as django_application

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Ids of the world's objects by the first part of the path, filled in when the world is built;
# generated paths use them half of the time, so that requests reach existing objects.
KNOWN_IDS: dict[str, list[int]] = {}


def application(environ, start_response):
    """Django's WSGI application without closing the test's database connection after each
    request (what Django's own test client does too)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        response = django_application(environ, start_response)
        body = b"".join(response)
        response.close()
        return [body]
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def load_schema() -> schemathesis.BaseSchema:
    document = SchemaGenerator().get_schema(request=None, public=True)
    raw = json.loads(OpenApiJsonRenderer().render(document, renderer_context={}))
    loaded = schemathesis.openapi.from_dict(raw)
    loaded.app = application
    return loaded


schema = load_schema()


@schema.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters:
        return st.just(path_parameters)
    path = context.operation.path
    resource = path.strip("/").split("/")[1]
    known = KNOWN_IDS.get(resource, [])
    name = next((key for key in ("id", "table_id", "tournament_id") if key in path_parameters), "")
    if not known or not name:
        return st.just(path_parameters)
    real = [{**path_parameters, name: pk} for pk in known]
    if "number" in path_parameters:
        real += [{**variant, "number": 1} for variant in real]
    return st.one_of(st.just(path_parameters), st.sampled_from(real))


# Body fields that name an object, and the part of KNOWN_IDS with the objects they may name.
ID_FIELDS = {
    "club": "clubs",
    "tournament": "tournaments",
    "player": "players",
    "first_seat": "seats",
    "second_seat": "seats",
}


@schema.hook
def flatmap_body(context, body):
    if not isinstance(body, dict) or not ID_FIELDS.keys() & body.keys():
        return st.just(body)
    variants = [
        st.sampled_from(KNOWN_IDS[ID_FIELDS[name]]) if name in ID_FIELDS else st.just(value)
        for name, value in body.items()
    ]
    real = st.tuples(*variants).map(lambda values: dict(zip(body, values, strict=True)))
    return st.one_of(st.just(body), real)


@pytest.fixture
def known_ids(world, settings):
    settings.ALLOWED_HOSTS = ["localhost"]
    KNOWN_IDS.update(
        clubs=[world.club.pk, world.other_club.pk],
        players=[
            world.public_registration.player_id,
            world.fresh_registration.player_id,
            world.private_player.pk,
        ],
        tournaments=[world.public.pk, world.fresh.pk, world.private.pk],
        registrations=[world.public_registration.pk, world.fresh_registration.pk],
        rounds=[world.public_round.pk, world.fresh_round.pk, world.private_round.pk],
        tables=[world.confirmed_table.pk, world.waiting_table.pk, world.private_table.pk],
        seats=[seat.pk for seat in world.fresh_seats],
    )
    yield world
    KNOWN_IDS.clear()


def call_and_validate(case, token: str) -> None:
    cache.clear()  # no throttling from the examples before
    with transaction.atomic():
        response = case.call(headers={"Authorization": f"Token {token}"})
        transaction.set_rollback(True)
    case.validate_response(response, checks=CHECKS)


SETTINGS = hypothesis.settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[
        # The world is built once per module; each example rolls its own changes back.
        hypothesis.HealthCheck.function_scoped_fixture,
        hypothesis.HealthCheck.too_slow,
        hypothesis.HealthCheck.filter_too_much,
    ],
)


@schema.parametrize()
@SETTINGS
def test_as_a_director(case, known_ids):
    call_and_validate(case, known_ids.tokens["director"])


@schema.parametrize()
@SETTINGS
def test_as_a_player(case, known_ids):
    call_and_validate(case, known_ids.tokens["player"])
