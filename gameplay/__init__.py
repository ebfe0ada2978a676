"""The gameplay app: the rules engine of 1001, its bots and the live games at the tables."""

# Import nothing here: rules and bots must stay importable without Django.
