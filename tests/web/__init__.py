"""Tests of pages and endpoints as a browser or a monitor sees them."""
