"""Template tags of the pages."""
