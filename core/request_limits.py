"""How much a request may carry, and the clear 4xx answers to one that cannot be read.

The limits themselves are Django's settings (DATA_UPLOAD_MAX_MEMORY_SIZE and friends, set in
config/settings.py). Django refuses a request over them with a bare "Bad Request (400)"; the
handlers here say what was wrong instead: 413 (Payload Too Large) for an oversized body, 400 for
too many fields or files, as JSON under the API and on the live table's endpoints, as a page
elsewhere. An address under the API that matches no route is a JSON 404 too.
"""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status

API_PREFIX = "/api/"


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


class UploadTooLarge(RequestDataTooBig):
    """An uploaded file is larger than UPLOAD_MAX_FILE_SIZE."""


class UploadSizeLimit(FileUploadHandler):
    """First of FILE_UPLOAD_HANDLERS: refuses an uploaded file over UPLOAD_MAX_FILE_SIZE.

    Django limits the other fields of a form (DATA_UPLOAD_MAX_MEMORY_SIZE) but not its files, so
    without this any amount could be streamed to a temporary file before a form refused it.
    """

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        if start + len(raw_data) > settings.UPLOAD_MAX_FILE_SIZE:
            raise UploadTooLarge("An uploaded file exceeded UPLOAD_MAX_FILE_SIZE.")
        return raw_data  # on to the next handler, which keeps it

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler makes the file


def too_large_message(error: Exception | None = None) -> str:
    if isinstance(error, UploadTooLarge):
        return _("The file is too large: at most %(size)s may be uploaded.") % {
            "size": filesizeformat(settings.UPLOAD_MAX_FILE_SIZE)
        }
    return _("The request is too large: at most %(size)s may be sent at once.") % {
        "size": filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    }


def too_many_message(error: Exception) -> str:
    if isinstance(error, TooManyFilesSent):
        return _("Too many files: at most %(count)d may be sent at once.") % {
            "count": settings.DATA_UPLOAD_MAX_NUMBER_FILES
        }
    return _("Too many form fields: at most %(count)d may be sent at once.") % {
        "count": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    }


def api_error_for(exc: Exception) -> exceptions.APIException | None:
    """The REST API's answer to a body Django refused to read, or None for other errors."""
    if isinstance(exc, RequestDataTooBig):
        return RequestTooLarge(too_large_message(exc))
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return exceptions.ParseError(too_many_message(exc))
    return None


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _refusal(request: HttpRequest, message: str, status_code: int) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": message}, status=status_code)
    if request.content_type == "application/json":
        # The live table's own endpoints answer {"error": ...} (static/js/table.js reads it).
        return JsonResponse({"error": message}, status=status_code)
    context = {"message": message}
    return render(request, "request_refused.html", context, status=status_code)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400: say what was wrong with a request Django could not read."""
    if isinstance(exception, RequestDataTooBig):
        status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
        return _refusal(request, too_large_message(exception), status_code)
    if isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        return _refusal(request, too_many_message(exception), status.HTTP_400_BAD_REQUEST)
    if _is_api(request):
        return JsonResponse({"detail": _("Bad request.")}, status=status.HTTP_400_BAD_REQUEST)
    return defaults.bad_request(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: JSON under the API, whose clients read nothing else."""
    if _is_api(request):
        return JsonResponse({"detail": _("Not found.")}, status=status.HTTP_404_NOT_FOUND)
    return defaults.page_not_found(request, exception)
