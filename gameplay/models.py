"""Database models of live games played at the tables."""
