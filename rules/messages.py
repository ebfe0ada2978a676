"""People-facing messages of the pure-Python modules, translatable without Django.

The rules engine, the score-sheet and standings validators and the seat draw explain what is wrong
in sentences that people read, on pages in English or Ukrainian. These modules do not import
Django, so a message is made here as a `Message`: the English text itself (a `str`, so callers and
tests that compare, join, match or print it keep working) that also carries the English template
with named placeholders and the values that fill it. The web app looks the template up in its
catalogue and fills in the same values: ``gettext(message.template) % message.params``
(`core.i18n.translate` does that, with ``ngettext`` for a message about a count).

Templates are marked for extraction where they are written: ``Message(_("..."), name=value)`` for
one form, ``ngettext("... %(count)s deal", "... %(count)s deals", n)`` for a count, and
``pgettext("context", "word")`` for a short word that needs its context. Django's makemessages
passes these names (``_``, ``gettext_noop``, ``ngettext`` and ``pgettext``) to xgettext, so the
templates land in locale/*/LC_MESSAGES/django.po like any other string. A parameter may itself be
a Message (a list of seats, the name of a field), and is then translated the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NoReturn

__all__ = ["Message", "_", "gettext_noop", "message_of", "ngettext", "pgettext"]


def gettext_noop(template: str) -> str:
    """Mark a template for extraction and return it unchanged; it is translated when shown."""
    return template


_ = gettext_noop


class Message(str):
    """The English text of a message, with the template and parameters it was made from.

    `template` is the English template (the singular one for a count), `plural` the plural template
    or None, `count` the number that chooses between them, `context` the translation context (or
    None), `params` the values of the named placeholders (read-only). Equal texts are equal
    messages, as for any string.
    """

    template: str
    plural: str | None
    # gettext's name for the number; it hides str.count (never called on a Message).
    count: int | None  # type: ignore[assignment]
    context: str | None
    params: Mapping[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Message:
        return cls._make(template, None, None, None, params)

    @classmethod
    def _make(
        cls,
        template: str,
        plural: str | None,
        count: int | None,
        context: str | None,
        params: Mapping[str, Any],
    ) -> Message:
        values = MappingProxyType(dict(params))
        english = template if plural is None or count == 1 else plural
        self = super().__new__(cls, english % dict(values))
        # A str subclass cannot have slots; the fields live in __dict__, behind __setattr__.
        self.__dict__.update(
            template=template, plural=plural, count=count, context=context, params=values
        )
        return self

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"a Message is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a Message is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Callable[..., Message], tuple[Any, ...]]:
        fields = (self.template, self.plural, self.count, self.context, dict(self.params))
        return _restore, fields


def _restore(
    template: str,
    plural: str | None,
    count: int | None,
    context: str | None,
    params: Mapping[str, Any],
) -> Message:
    return Message._make(template, plural, count, context, params)


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> Message:
    """A message about a number: `singular` for one, `plural` otherwise (in English).

    Named like gettext's function so that xgettext extracts both templates; a language with more
    plural forms (Ukrainian has three) picks its own by `count`. `count` is also a parameter.
    """
    params.setdefault("count", count)
    return Message._make(singular, plural, count, None, params)


def pgettext(context: str, template: str, /, **params: Any) -> Message:
    """A message whose template needs a context to be translated, such as a single word."""
    return Message._make(template, None, None, context, params)


def message_of(error: BaseException) -> Message | None:
    """The Message an exception was raised with (its first argument), or None."""
    args = getattr(error, "args", ())
    return args[0] if args and isinstance(args[0], Message) else None
