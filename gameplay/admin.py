"""Admin pages for inspecting live games."""
