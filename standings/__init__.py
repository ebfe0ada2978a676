"""Standings of a tournament, pure: ranking players from table results by a tournament's metrics.

Plain Python with no Django (the import contracts of pyproject.toml keep it so), below every app:
the tournament model validates its standings settings with it, scoring computes the snapshots,
the pages and the archive read its metric registry.
"""
