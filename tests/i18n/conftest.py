"""Fixtures for the catalogue's tests: the services' real database and toy game service."""

from tests.services.conftest import database_url, service, store

__all__ = ["database_url", "service", "store"]
