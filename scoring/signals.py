"""Signals of the scoring app, for the layers above it to act on without scoring importing them."""

from django.dispatch import Signal

# Sent after the transaction that stored a new standings snapshot commits; argument:
# tournament_id. The pages (web) pre-render the new table in a worker before phones ask for it.
standings_stored = Signal()
