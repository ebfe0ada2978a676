"""Django's own messages whose Ukrainian the project corrects.

Django's Ukrainian catalogue says "Зробить коректний вибір" (for "Зробіть") and "цифер" (for
"цифр") in messages the director's forms show. The project's catalogue (LOCALE_PATHS) is read
before Django's, so the same message there wins; listing the messages here is what keeps them in
it (`make translations` extracts only what the project's code names). Nothing imports this.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

CORRECTED = [
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s digit in total.",
        "Ensure that there are no more than %(max)s digits in total.",
        "max",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s decimal place.",
        "Ensure that there are no more than %(max)s decimal places.",
        "max",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s digit before the decimal point.",
        "Ensure that there are no more than %(max)s digits before the decimal point.",
        "max",
    ),
]
