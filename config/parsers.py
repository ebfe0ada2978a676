"""Request parsers of the REST API: a body too large or nested too deeply is a client error."""

import io

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser

from config.request_limits import RequestTooLarge, too_large_message


def read_limited(stream) -> io.BytesIO:
    """The body, refused with 413 if it is larger than DATA_UPLOAD_MAX_MEMORY_SIZE.

    Django enforces the limit when a view reads `request.body` or `request.POST`; DRF's parsers
    read the stream itself, so without this a client could make the server hold any amount.
    """
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(body) > limit:
        raise RequestTooLarge(too_large_message())
    return io.BytesIO(body)


class SafeJSONParser(JSONParser):
    """JSON that is too large or nests too deeply for Python's parser is a client error."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(read_limited(stream), media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - the document nests too deeply.")) from None


class SafeFormParser(FormParser):
    """A URL-encoded form no larger than DATA_UPLOAD_MAX_MEMORY_SIZE."""

    def parse(self, stream, media_type=None, parser_context=None):
        return super().parse(read_limited(stream), media_type, parser_context)
