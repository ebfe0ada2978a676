"""Database migrations of the gameplay app."""
