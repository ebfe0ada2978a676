"""Date formats of the site, where they differ from Django's own for a language."""
