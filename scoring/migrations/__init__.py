"""Database migrations of the scoring app."""
