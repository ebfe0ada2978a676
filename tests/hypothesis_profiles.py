"""Hypothesis profiles: the full example counts in CI's PostgreSQL pass (`make test-pg`), a
quarter of them in `make test`, which a developer runs many times a day.

HYPOTHESIS_PROFILE picks one ("full" unless set). A property test states its full count through
`examples(n)`: an explicit count in `@settings` would override the profile's.
"""

from __future__ import annotations

import os

from hypothesis import settings

SHARE = {"full": 1.0, "quick": 0.25}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "full")
if PROFILE not in SHARE:
    raise RuntimeError(f"HYPOTHESIS_PROFILE={PROFILE!r}: use one of {', '.join(SHARE)}")

# The tests without a count of their own: Hypothesis' default of 100, or a quarter of it.
settings.register_profile("full", max_examples=100)
settings.register_profile("quick", max_examples=25)
settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """The number of examples to try of a property whose full count is `full`."""
    return max(5, round(full * SHARE[PROFILE]))
