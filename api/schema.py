"""The OpenAPI schema's view of each operation, including the error answers it may give.

drf-spectacular documents only the success answer; a client (and schemathesis) also needs to
know the 4xx answers that `core.exceptions.api_exception_handler` and DRF give, and their bodies.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorDetailSerializer(serializers.Serializer):
    """Most errors: one message saying what went wrong."""

    detail = serializers.CharField()


# A rejected request body: each field's messages (a list, or a nested object for nested fields),
# "non_field_errors" for the whole body, or "detail" for a message of the service or parser.
VALIDATION_ERROR_SCHEMA = {
    "type": "object",
    "description": "Messages by field name.",
    "additionalProperties": {},
}


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorDetailSerializer, description=description)


ERRORS = {
    "400": OpenApiResponse(VALIDATION_ERROR_SCHEMA, description="The request is not valid."),
    "401": _error("The token is not valid, or the operation needs a signed-in user."),
    "403": _error("The user may not do this."),
    "404": _error("No such object, or one the user may not see; or no such page of the list."),
    "409": _error("Someone else changed the record first; reload it and try again."),
    "413": _error("The request body is too large."),
    "415": _error("The request body's media type is not supported."),
    "429": _error("Too many requests; wait the seconds the Retry-After header says."),
}


class AutoSchema(SpectacularAutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for status in self._error_statuses():
            if status not in responses:
                responses[status] = self._get_response_for_code(
                    ERRORS[status], status, direction=direction
                )
        return responses

    def _error_statuses(self) -> list[str]:
        statuses = ["401"]  # a wrong token, on every operation
        writes = self.method not in ("GET", "HEAD", "OPTIONS")
        if writes:
            statuses += ["400", "403"]
        if getattr(self.view, "action", None) == "list" and hasattr(self.view, "list_filters"):
            statuses.append("400")  # a filter's value that is not valid, or no such filter
        if "{" in self.path or self._is_paginated_list():
            statuses.append("404")
        if writes and self._get_request_body():
            statuses += ["413", "415"]
        if writes and getattr(self.view, "throttle_scope", None):
            statuses.append("429")
        if writes:
            # A view names the errors particular to its writes (409 for versioned records).
            statuses += getattr(self.view, "write_error_statuses", ())
        return sorted(set(statuses))

    def _is_paginated_list(self) -> bool:
        return self._is_list_view() and self._get_paginator() is not None
