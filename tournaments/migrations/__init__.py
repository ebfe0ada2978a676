"""Database migrations of the tournaments app."""
