"""Shared pytest fixtures: a throwaway PostgreSQL database per test module (see ``pgtest.py``).

Each module asking for ``pg_database`` gets a database of its own, uniquely named, dropped after
the module even if its connections were left open.
"""
from typing import Iterator

import pytest

from pgtest import Database, create_database, drop_database


@pytest.fixture(scope="module")
def pg_database(request: pytest.FixtureRequest) -> Iterator[Database]:
    """A fresh, empty database for the requesting module, dropped after it."""
    database = create_database(request.module.__name__.rsplit(".", 1)[-1])
    try:
        yield database
    finally:
        drop_database(database)
