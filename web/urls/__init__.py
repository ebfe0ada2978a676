"""URL routes of the pages, one module per audience."""
