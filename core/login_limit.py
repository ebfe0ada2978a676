"""One limit on failed sign-ins for every way of signing in: the page, the admin, API tokens.

The limit sits in the authentication backend, so whatever calls Django's `authenticate()` (the
sign-in page, the admin's sign-in, DRF's token view, any route added later) is counted and, once
over the limit, refused even with the right password. The forms and views only turn a refusal
into a clear answer (429, a message, Retry-After) before the password is looked at.

Failures are counted for three keys, each with its own limit within `window` seconds (counted
from a key's first failure):
- the user name from one address (`per_user_and_address`, 5): a guesser at one account;
- the user name from anywhere (`per_user`, 20): guessing one account from many addresses;
- the address for any user names (`per_address`, 50): one machine trying many accounts. High
  enough that a whole club behind one NAT, typing its passwords wrong now and then, is not locked
  out together.
The players' entry codes (`tournaments.services.player_login_from_code`) count with the same
limits: a code typed for a seat counts as a password for the user name
"entry-code:<registration id>" (no real user name has a colon), a code typed alone only for the
address. The address counts codes and passwords apart: a player in the room who types wrong codes
until his address is refused (the whole club may share it behind one NAT) does not lock the
director, or anyone, out of the sign-in page, nor a password guesser the entry codes.
A successful sign-in never counts and clears its user name's counts, though not the address's
(an attacker must not reset it by signing in to an account of his own). The counts live in the
database (one atomic statement per key), so the limit holds across web processes with or without
Redis.

The client address is REMOTE_ADDR: behind the proxy, uvicorn's --proxy-headers puts the
client's address there.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import ngettext
from rest_framework import exceptions
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from core.models import SignInFailureCount

DEFAULT_LIMIT = {"window": 15 * 60, "per_user_and_address": 5, "per_user": 20, "per_address": 50}
REFUSED = "too_many_attempts"  # the error code of a refusal on a sign-in form


def limit() -> dict[str, int]:
    return {**DEFAULT_LIMIT, **getattr(settings, "LOGIN_RATE_LIMIT", {})}


@dataclass(frozen=True)
class SignInAttempt:
    """Who is trying to sign in, as the limit counts it."""

    address: str
    username: str
    # What is typed: "password" (the sign-in forms, the API's tokens) or "code" (entry codes).
    credential: str = "password"

    @classmethod
    def of(cls, request: HttpRequest | None, username: object) -> SignInAttempt:
        name = username.strip().casefold() if isinstance(username, str) else ""
        meta = getattr(request, "META", None) or {}
        return cls(address=str(meta.get("REMOTE_ADDR") or ""), username=name)

    def _keys(self) -> dict[str, str]:
        """Each counted key with the name of its limit."""
        keys = {}
        if self.address:
            kind = "address" if self.credential == "password" else f"{self.credential}-address"
            keys[_key(kind, self.address)] = "per_address"
        if self.username:
            keys[_key("user", self.username)] = "per_user"
            if self.address:
                keys[_key("pair", f"{self.address}\n{self.username}")] = "per_user_and_address"
        return keys

    def refused(self) -> bool:
        keys = self._keys()
        if not keys:
            return False
        limits = limit()
        counts = SignInFailureCount.objects.filter(
            key__in=keys, window_started__gt=_window_start(limits)
        ).values_list("key", "count")
        return any(count >= limits[keys[key]] for key, count in counts)

    def failed(self) -> None:
        limits = limit()
        now, cutoff = timezone.now(), _window_start(limits)
        SignInFailureCount.objects.filter(window_started__lte=cutoff).delete()
        for key in self._keys():
            _count_failure(key, now=now, cutoff=cutoff)

    def succeeded(self) -> None:
        keys = [key for key, name in self._keys().items() if name != "per_address"]
        SignInFailureCount.objects.filter(key__in=keys).delete()


def _window_start(limits: dict[str, int]) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=limits["window"])


def _key(kind: str, value: str) -> str:
    # Hashed: any text may be typed as a user name (lone surrogates too), and a key stays short.
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{kind}:{digest}"


def _count_failure(key: str, *, now: datetime.datetime, cutoff: datetime.datetime) -> None:
    """One more failure for `key`, or the first of a new window; one statement, so concurrent
    failures in several processes all count."""
    quote = connection.ops.quote_name
    table, key_, count, started = (
        quote(name)
        for name in (SignInFailureCount._meta.db_table, "key", "count", "window_started")
    )
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {table} ({key_}, {count}, {started}) VALUES (%s, 1, %s)
            ON CONFLICT ({key_}) DO UPDATE SET
                {count} = CASE WHEN {table}.{started} > %s THEN {table}.{count} + 1 ELSE 1 END,
                {started} = CASE WHEN {table}.{started} > %s
                    THEN {table}.{started} ELSE excluded.{started} END
            """,
            [key, adapt(now), adapt(cutoff), adapt(cutoff)],
        )


def refusal_message() -> str:
    minutes = max(1, limit()["window"] // 60)
    return ngettext(
        "Too many failed sign-in attempts. Try again in %(minutes)d minute.",
        "Too many failed sign-in attempts. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


class SignInRefused(PermissionDenied):
    """Over the limit: `authenticate()` stops at once and tries no other backend."""


class RateLimitedModelBackend(ModelBackend):
    """Django's model backend, counting failures and refusing everyone over the limit."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        attempt = SignInAttempt.of(request, username)
        if attempt.refused():
            raise SignInRefused(refusal_message())
        user = None
        if _storable(username):  # a lone surrogate would make the database fail, not say no
            user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            attempt.failed()
        else:
            attempt.succeeded()
        return user


def _storable(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


class SignInLimitFormMixin:
    """A sign-in form that refuses, with the limit's message, before it looks at the password."""

    def clean(self):
        username = self.data.get("username") if hasattr(self.data, "get") else None
        if SignInAttempt.of(self.request, username).refused():
            raise ValidationError(refusal_message(), code=REFUSED)
        return super().clean()


class SignInForm(SignInLimitFormMixin, AuthenticationForm):
    """The sign-in page's form."""


class AdminSignInForm(SignInLimitFormMixin, AdminAuthenticationForm):
    """The admin's sign-in form (staff only, as Django's)."""


def with_refusal_status(response: HttpResponse) -> HttpResponse:
    """A sign-in page whose form was refused by the limit answers 429 with Retry-After."""
    form = (getattr(response, "context_data", None) or {}).get("form")
    if form is not None and form.is_bound and form.has_error("__all__", code=REFUSED):
        response.status_code = 429
        response["Retry-After"] = str(limit()["window"])
    return response


class RateLimitedLoginView(LoginView):
    """The sign-in page."""

    authentication_form = SignInForm

    def form_invalid(self, form) -> HttpResponse:
        return with_refusal_status(super().form_invalid(form))


def admin_login(site):
    """The admin site's sign-in view, with the same limit and answer as the sign-in page."""
    site.login_form = AdminSignInForm

    def login(request: HttpRequest, extra_context=None) -> HttpResponse:
        return with_refusal_status(site.login(request, extra_context))

    return login


class RateLimitedObtainAuthToken(ObtainAuthToken):
    """POST a user name and password for an API token; 429 after too many failures."""

    # The API's own parsers, which refuse oversized and too deeply nested bodies.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    write_error_statuses = ("429",)  # documented in the schema (api/schema.py)

    def post(self, request: Request, *args, **kwargs) -> Response:
        data = request.data
        attempt = SignInAttempt.of(request, data.get("username") if hasattr(data, "get") else None)
        if attempt.refused():
            refusal = exceptions.Throttled(detail=refusal_message())
            refusal.wait = limit()["window"]  # the Retry-After header
            raise refusal
        serializer = self.get_serializer(data=data)
        if not serializer.is_valid():
            raise exceptions.ValidationError(serializer.errors)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})
