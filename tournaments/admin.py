"""Admin pages for tournament directors to manage the tournaments app's records."""
