"""Messages of the pure-Python modules in the active language.

The rules engine, the score-sheet and standings validators and the seat draw import no Django, so
they raise their errors with `rules.messages.Message`s: English text that carries its
template and parameters. Where the web app catches those errors it shows them through `translate`,
which looks the template up in the catalogue (the templates are extracted like any other string)
and fills in the same values.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext, npgettext, pgettext

from rules.messages import Message, message_of


def translate(message: Any) -> str:
    """A Message in the active language (its parameters too); anything else as str()."""
    if not isinstance(message, Message):
        return str(message)
    params = {
        name: translate(value) if isinstance(value, Message) else value
        for name, value in message.params.items()
    }
    context, count = message.context, message.count
    if message.plural is None:
        if context is None:
            template = gettext(message.template)
        else:
            template = pgettext(context, message.template)
    elif context is None:
        template = ngettext(message.template, message.plural, count)
    else:
        template = npgettext(context, message.template, message.plural, count)
    return template % params


def error_text(error: BaseException) -> str:
    """The message of an error raised by a pure module, translated; other errors as str()."""
    message = message_of(error)
    return translate(message) if message is not None else str(error)


def error_message(error: BaseException) -> str:
    """What a person reads for a refused action, wherever it shows (page, admin, websocket,
    command line): a ValidationError's messages in the active language, a pure module's error
    translated, any other error's own text."""
    if isinstance(error, ValidationError):
        return " ".join(str(message) for message in error.messages)
    return error_text(error)
