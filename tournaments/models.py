"""Database models of clubs, players, tournaments, rounds, tables and seats."""
