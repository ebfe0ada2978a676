"""{% local_address_warning as warning %}: whether the page's codes carry a loopback address."""

from django import template

from web.public_address import LocalAddressWarning, local_address_warning

register = template.Library()


@register.simple_tag(takes_context=True, name="local_address_warning")
def local_address_warning_tag(context) -> LocalAddressWarning | None:
    request = context.get("request")
    return local_address_warning(request) if request is not None else None
