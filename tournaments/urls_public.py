"""URL routes of the public pages: tournaments, draws, results, standings, player pages."""

urlpatterns: list = []
