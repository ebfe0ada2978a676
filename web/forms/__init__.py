"""The forms of the pages."""
