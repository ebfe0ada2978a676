"""Errors that services raise for any interface, and how the REST API reports them."""

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status
from rest_framework.views import exception_handler

from core.database_errors import api_error_for_database
from core.request_limits import api_error_for


class Conflict(Exception):
    """Someone else changed the record first; reload it and try again."""


class ConflictError(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = _("The record was changed by someone else; reload it and try again.")
    default_code = "conflict"


def api_exception_handler(exc, context):
    """Turn the services' Django errors into clear 4xx answers instead of server errors."""
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            exc = exceptions.ValidationError(exc.message_dict)
        else:
            exc = exceptions.ValidationError({"detail": exc.messages})
    elif isinstance(exc, Conflict):
        exc = ConflictError(str(exc) or None)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif (unavailable := api_error_for_database(exc, context["request"].path)) is not None:
        exc = unavailable
    else:
        # A body over the request limits: 413 or 400 with a message, not Django's bare 400.
        exc = api_error_for(exc) or exc
    return exception_handler(exc, context)
