"""Exceptions of the rules engine; their messages are meant for the players who broke a rule."""


class EngineError(Exception):
    """Base of every error the engine raises on bad input."""


class RuleOptionError(EngineError, ValueError):
    """An unknown rule option or a value the option does not allow.

    `option` names the option whose value is refused, or is None when the options as a whole are
    wrong (not a mapping, or a name that is no option).
    """

    def __init__(self, message: object, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class IllegalActionError(EngineError, ValueError):
    """An action that the rules do not allow in this state; the message names the rule."""


class RecordError(EngineError, ValueError):
    """A deal or game record that is malformed or replays an illegal action."""
