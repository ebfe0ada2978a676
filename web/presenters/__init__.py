"""What the pages show, computed from what the selectors read: formatted numbers, the standings
table, the score chart's geometry, CSV files. No database access of their own."""
