"""The REST API (under /api/): thin views over the services and selectors; its OpenAPI schema."""
