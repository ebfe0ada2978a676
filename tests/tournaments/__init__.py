"""Tests of the tournaments app."""
