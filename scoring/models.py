"""Database models of score sheets, confirmations and standings snapshots."""
