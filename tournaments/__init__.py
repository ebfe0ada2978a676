"""The tournaments app: clubs, players, tournaments, registrations, rounds, tables and seats."""
