"""Club ratings and season tables: pure functions (no Django) over results the apps hand in."""
