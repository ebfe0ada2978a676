"""The named rule options of RULES.md as one immutable, validated value."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .errors import RuleOptionError
from .messages import Message, _

BID_CAPS = ("held_marriages", "none")
# With no bid cap a bid above what a deal can possibly score (all cards and all four marriages)
# makes no sense, so this is the ceiling of every bid and contract.
ABSOLUTE_MAX_BID = 120 + 40 + 60 + 80 + 100


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Rule options; the defaults are the rules of RULES.md."""

    min_bid: int = 40
    bid_step: int = 5
    bid_jumps: bool = True
    bid_cap: str = "held_marriages"
    concede_bonus: int = 50
    must_beat: bool = False
    marriage_on_first_trick: bool = False
    round_declarer_points: bool = False
    rounding: int = 5
    target: int = 1001

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            expected = bool if field.type in ("bool", bool) else None
            if expected is bool:
                if not isinstance(value, bool):
                    raise _option_error(
                        field.name, _("rule option %(option)s must be true or false")
                    )
            elif field.name == "bid_cap":
                if value not in BID_CAPS:
                    raise _option_error(
                        "bid_cap",
                        _("rule option %(option)s must be one of %(allowed)s, not %(value)s"),
                        allowed=", ".join(BID_CAPS),
                        value=repr(value),
                    )
            elif not isinstance(value, int) or isinstance(value, bool):
                raise _option_error(field.name, _("rule option %(option)s must be a whole number"))
        if self.min_bid < 5 or self.min_bid % 5 or self.min_bid > 120:
            raise _option_error(
                "min_bid", _("rule option %(option)s must be a multiple of 5 from 5 to 120")
            )
        if self.bid_step < 5 or self.bid_step % 5 or self.bid_step > 100:
            raise _option_error(
                "bid_step", _("rule option %(option)s must be a multiple of 5 from 5 to 100")
            )
        if self.concede_bonus < 0 or self.concede_bonus > 1000:
            raise _option_error("concede_bonus", _("rule option %(option)s must be from 0 to 1000"))
        if self.rounding not in (5, 10):
            raise _option_error("rounding", _("rule option %(option)s must be 5 or 10"))
        if self.target < 100 or self.target > 100_000:
            raise _option_error("target", _("rule option %(option)s must be from 100 to 100000"))

    @classmethod
    def from_dict(cls, options: Any) -> RuleSet:
        """Build from a mapping of option names (e.g. a record's ``rules``); unknown names fail."""
        if options is None:
            return DEFAULT_RULES
        if not isinstance(options, dict):
            raise RuleOptionError(Message(_("rules must be an object of rule options")))
        known = {field.name for field in fields(cls)}
        unknown = sorted(str(name) for name in options if name not in known)
        if unknown:
            raise RuleOptionError(
                Message(
                    _("unknown rule option %(option)s; known options: %(known)s"),
                    option=repr(unknown[0]),
                    known=", ".join(sorted(known)),
                )
            )
        return cls(**options) if options else DEFAULT_RULES

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from the defaults, as a record's ``rules`` holds them."""
        defaults = asdict(DEFAULT_RULES)
        return {name: value for name, value in asdict(self).items() if defaults[name] != value}

    def round_points(self, points: int) -> int:
        """Round deal points to the nearest multiple of `rounding`; halves round up."""
        unit = self.rounding
        half_up = 5 if unit == 10 else 3  # 5 rounds up to 10; with fives, 3 and 4 round up
        return (points + unit - half_up) // unit * unit

    def bid_ceiling(self, marriages: int) -> int:
        """The highest bid or contract allowed to a hand holding marriages of this total value."""
        if self.bid_cap == "none":
            return ABSOLUTE_MAX_BID
        return 120 + marriages


def _option_error(option: str, template: str, **params: Any) -> RuleOptionError:
    """The error about one option; the message names it as RULES.md does (`option`)."""
    return RuleOptionError(Message(template, option=option, **params), option=option)


DEFAULT_RULES = RuleSet()
