"""The scoring app: score sheets, their submission and confirmation, and standings."""
