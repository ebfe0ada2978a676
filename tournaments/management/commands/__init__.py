"""Management commands of the tournaments app, one module per command."""
