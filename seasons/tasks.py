"""Celery tasks of the seasons app: thin interfaces to its services."""
