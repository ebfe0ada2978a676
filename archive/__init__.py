"""Export and import of a whole tournament as one JSON document (the archive format)."""
