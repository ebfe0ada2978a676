"""Serializers of the REST API."""
