"""Request parsers of the REST API: a body too large, nested too deeply or holding text that is
not Unicode (a lone surrogate escape such as "\\ud800") is a client error."""

import io
import json

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser

from core.request_limits import RequestTooLarge, too_large_message


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
    """JSON that is too large or nests too deeply for Python's parser is a client error, and so
    is a string no database can store (a lone surrogate, which JSON's escapes can spell)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(read_limited(stream), media_type, parser_context)
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except RecursionError:
            raise ParseError(_("JSON parse error - the document nests too deeply.")) from None
        except UnicodeEncodeError:
            raise ParseError(
                _("JSON parse error - the text holds an invalid character (a lone surrogate).")
            ) from None
        return data


class SafeFormParser(FormParser):
    """A URL-encoded form no larger than DATA_UPLOAD_MAX_MEMORY_SIZE."""

    def parse(self, stream, media_type=None, parser_context=None):
        return super().parse(read_limited(stream), media_type, parser_context)
