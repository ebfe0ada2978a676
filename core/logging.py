"""Log records tagged with the request (or Celery task) they belong to, as text or one JSON line."""

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime

# Set for the length of a request by core.middleware and of a task by config.celery. A context
# variable, not a thread local: under ASGI one thread serves many requests, and the value follows
# a request into the threads that run its sync views.
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)

NO_REQUEST = "-"
# Attributes every LogRecord has (and uvicorn's copy of the message with terminal colours);
# anything else on a record came from `extra=` or a filter and goes into the JSON line.
_NOT_EXTRA = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "color_message",
}


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every record: the current request's or task's id, else "-"."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get() or NO_REQUEST
        return True


# A personal link's token signs its player in (web/urls/player.py: /me/link/<token>/); whoever
# reads a log must not be able to do the same. Any line or value with such a path shows "…".
_SECRET_PATH = re.compile(r"(/me/link/)[^/\s'\"?#]+")


def redact(text: str) -> str:
    return _SECRET_PATH.sub(r"\1…", text)


class SecretPathFilter(logging.Filter):
    """Takes the tokens of personal links out of every record: its message and its extras (the
    access line's path, the request Django attaches to its warnings)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if _SECRET_PATH.search(message):
            record.msg, record.args = redact(message), ()
        for key, value in list(vars(record).items()):
            if key in _NOT_EXTRA:
                continue
            if isinstance(value, str):
                setattr(record, key, redact(value))
            elif hasattr(value, "META") and hasattr(value, "path"):  # an HttpRequest
                setattr(record, key, redact(str(value)))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, then the record's extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update((key, value) for key, value in vars(record).items() if key not in _NOT_EXTRA)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # Extras may be objects (Django logs the request itself); their str() is enough.
        return json.dumps(entry, ensure_ascii=False, default=str)


class RoutineTaskFilter(logging.Filter):
    """Moves Celery's INFO lines about routine periodic tasks (beat sending them, a worker
    receiving and finishing them) down to DEBUG.

    The bot-turn watchdog runs every five seconds: at INFO its three lines were most of what an
    idle server logged (19 MiB a day from one worker). With LOG_LEVEL=DEBUG they are still there.
    """

    def __init__(self, tasks: list[str] | tuple[str, ...] = ()) -> None:
        super().__init__()
        self.tasks = frozenset(tasks)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not record.name.startswith("celery"):
            return True
        if not self._names_routine_task(record.args):
            return True
        if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
            return False
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return True

    def _names_routine_task(self, args: object) -> bool:
        # Celery's worker lines pass a dict with the task's name; beat's passes the schedule
        # entry's name and the task's name as positional arguments.
        if isinstance(args, dict):
            return args.get("name") in self.tasks
        if isinstance(args, tuple):
            return any(isinstance(arg, str) and arg in self.tasks for arg in args)
        return False
