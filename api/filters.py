"""The query filters of the API's lists, declared once for both the code and the OpenAPI schema.

A list takes only the filters it declares (and `page`, `format`): a value that is not valid, or a
parameter the list does not know (a typo such as `?tournamnet=3`), is a 400 saying so, never a
list of everything. An empty value filters nothing, as a form's empty field does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

# Ids are positive and fit a 64-bit column with room to spare.
MAX_ID = 10**18 - 1
# What every list takes besides its filters: the page of a paginated list and DRF's `format`.
LIST_PARAMETERS = ("page", "format")
SHOWN_VALUE_LENGTH = 30


@dataclass(frozen=True)
class ListFilter:
    """`?name=value` keeps the records whose `lookup` is the value: an id, or one of `choices`."""

    name: str
    lookup: str
    description: str
    choices: Sequence[str] = ()

    def parse(self, text: str) -> Any:
        if self.choices:
            if text in self.choices:
                return text
            raise ValidationError(
                {
                    self.name: [
                        _("%(value)s is not one of %(choices)s.")
                        % {"value": _shown(text), "choices": ", ".join(self.choices)}
                    ]
                }
            )
        if text.isascii() and text.isdigit() and len(text) <= len(str(MAX_ID)):
            number = int(text)
            if number >= 1:
                return number
        raise ValidationError(
            {
                self.name: [
                    _("%(value)s is not an id: give a whole number from 1 to %(most)s.")
                    % {"value": _shown(text), "most": MAX_ID}
                ]
            }
        )

    def parameter(self) -> OpenApiParameter:
        schema: dict[str, Any] = (
            {"type": "string", "enum": list(self.choices)}
            if self.choices
            else {"type": "integer", "minimum": 1, "maximum": MAX_ID}
        )
        return OpenApiParameter(
            self.name, type=schema, location=OpenApiParameter.QUERY, description=self.description
        )


def _shown(text: str) -> str:
    if len(text) > SHOWN_VALUE_LENGTH:
        text = text[:SHOWN_VALUE_LENGTH] + "…"
    return repr(text)


def filter_list(queryset: QuerySet, request: Request, filters: Sequence[ListFilter]) -> QuerySet:
    """The records of `queryset` that the request's filters keep; 400 for a bad or unknown one."""
    known = {item.name for item in filters}
    unknown = sorted(set(request.query_params) - known - set(LIST_PARAMETERS))
    if unknown:
        if known:
            message = _("This list has no such filter. Its filters: %(filters)s.") % {
                "filters": ", ".join(sorted(known))
            }
        else:
            message = _("This list takes no filters.")
        raise ValidationError({name[:SHOWN_VALUE_LENGTH]: [message] for name in unknown[:5]})
    for item in filters:
        text = request.query_params.get(item.name, "")
        if text != "":
            queryset = queryset.filter(**{item.lookup: item.parse(text)})
    return queryset


def list_filters(*filters: ListFilter) -> Callable[[type], type]:
    """A viewset's list takes these filters, and its schema documents them (and the 400)."""

    def decorate(viewset: type) -> type:
        viewset.list_filters = tuple(filters)
        parameters = [item.parameter() for item in filters]
        return extend_schema_view(list=extend_schema(parameters=parameters))(viewset)

    return decorate


class FilteredList:
    """Mixed into a viewset: its list (only the list, not one record) applies `list_filters`."""

    list_filters: tuple[ListFilter, ...] = ()

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        queryset = super().filter_queryset(queryset)  # type: ignore[misc]
        if getattr(self, "action", None) == "list":
            queryset = filter_list(queryset, self.request, self.list_filters)  # type: ignore[attr-defined]
        return queryset
