"""Failed sign-ins limited per user name and per client address, on the page and for API tokens.

After `LOGIN_RATE_LIMIT["attempts"]` failed attempts for one user name, or from one address,
within `LOGIN_RATE_LIMIT["window"]` seconds (counted from the first failure), further attempts are
refused with 429 until the window is over, without looking at the password, so that guessing
stops. A successful sign-in never counts and clears its user name's count, though not the
address's (an attacker must not reset it by signing in to an account of his own). The counts
live in Django's cache, which production shares between the web processes through Redis.

The client address is REMOTE_ADDR: behind the proxy, uvicorn's --proxy-headers puts the
client's address there.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext
from rest_framework import exceptions
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

DEFAULT_LIMIT = {"attempts": 5, "window": 15 * 60}


@dataclass(frozen=True)
class SignInAttempt:
    """Who is trying to sign in, as the limits count it."""

    address: str
    username: str

    @classmethod
    def of(cls, request: HttpRequest, username: object) -> SignInAttempt:
        name = username.strip().casefold() if isinstance(username, str) else ""
        return cls(address=request.META.get("REMOTE_ADDR", ""), username=name)

    def _keys(self) -> list[str]:
        keys = [_key("address", self.address)]
        if self.username:
            keys.append(_key("user", self.username))
        return keys

    def refused(self) -> bool:
        attempts = _limit()["attempts"]
        counts = cache.get_many(self._keys())
        return any(count >= attempts for count in counts.values())

    def failed(self) -> None:
        window = _limit()["window"]
        for key in self._keys():
            # The first failure starts the window; later ones count within it.
            cache.add(key, 0, timeout=window)
            try:
                cache.incr(key)
            except ValueError:  # the window ended between the two calls
                cache.set(key, 1, timeout=window)

    def succeeded(self) -> None:
        if self.username:
            cache.delete(_key("user", self.username))


def _limit() -> dict[str, int]:
    return {**DEFAULT_LIMIT, **getattr(settings, "LOGIN_RATE_LIMIT", {})}


def _key(kind: str, value: str) -> str:
    # Hashed: any text may be typed as a user name, and a cache key must be short and plain.
    return f"login-limit:{kind}:{hashlib.sha256(value.encode()).hexdigest()}"


def refusal_message() -> str:
    minutes = max(1, _limit()["window"] // 60)
    return ngettext(
        "Too many failed sign-in attempts. Try again in %(minutes)d minute.",
        "Too many failed sign-in attempts. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


class RateLimitedLoginView(LoginView):
    """The sign-in page; refused with 429 (the form and the message) after too many failures."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        attempt = SignInAttempt.of(request, request.POST.get("username"))
        if attempt.refused():
            initial = {"username": request.POST.get("username")}
            form = self.get_form_class()(request, initial=initial)
            context = self.get_context_data(form=form, refusal=refusal_message())
            response = self.render_to_response(context, status=429)
            response["Retry-After"] = str(_limit()["window"])
            return response
        self.attempt = attempt
        return super().post(request, *args, **kwargs)

    def form_valid(self, form) -> HttpResponse:
        self.attempt.succeeded()
        return super().form_valid(form)

    def form_invalid(self, form) -> HttpResponse:
        self.attempt.failed()
        return super().form_invalid(form)


class RateLimitedObtainAuthToken(ObtainAuthToken):
    """POST a user name and password for an API token; 429 after too many failures."""

    # The API's own parsers, which refuse oversized and too deeply nested bodies.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    write_error_statuses = ("429",)  # documented in the schema (config/api_schema.py)

    def post(self, request: Request, *args, **kwargs) -> Response:
        data = request.data
        attempt = SignInAttempt.of(request, data.get("username") if hasattr(data, "get") else None)
        if attempt.refused():
            refusal = exceptions.Throttled(detail=refusal_message())
            refusal.wait = _limit()["window"]  # the Retry-After header
            raise refusal
        serializer = self.get_serializer(data=data)
        if not serializer.is_valid():
            attempt.failed()
            raise exceptions.ValidationError(serializer.errors)
        attempt.succeeded()
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})
