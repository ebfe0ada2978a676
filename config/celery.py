"""The Celery app (`config.celery:app`), configured from the CELERY_* Django settings."""

import logging.config
import os

from celery import Celery
from celery.signals import setup_logging, task_postrun, task_prerun

from core.logging import request_id

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("thousand_one")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def log_like_the_web_processes(**_) -> None:
    """Workers and beat use Django's LOGGING (JSON lines in production), not Celery's format."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


# Tokens of the ids set by task_prerun, by task id, to restore the context after the task.
_task_id_tokens = {}


@task_prerun.connect
def tag_logs_with_task_id(task_id: str, **_) -> None:
    # A task run inline during a request (the embedded mode) keeps the request's id.
    if request_id.get() is None:
        _task_id_tokens[task_id] = request_id.set(task_id)


@task_postrun.connect
def untag_logs(task_id: str, **_) -> None:
    token = _task_id_tokens.pop(task_id, None)
    if token is not None:
        request_id.reset(token)
