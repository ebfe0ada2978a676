"""Admin pages for reviewing score sheets and standings."""
