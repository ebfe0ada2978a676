"""The views of the pages, one module per audience: home, public, director, player, table."""
