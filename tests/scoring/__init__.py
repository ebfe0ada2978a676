"""Tests of the scoring app: score sheets, standings, results."""
