"""Rounds and their seat draw: the services and selectors; the pure seat draw is draws.seating."""
