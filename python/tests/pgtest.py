"""Throwaway PostgreSQL databases for the Python tests (used by ``conftest.py`` and by child processes).

The server is the local PostgreSQL (127.0.0.1:5432, user postgres, trust authentication) unless
``ONEBEAT_TEST_PG_DSN`` names another (a libpq DSN or URL of a role that may create databases).
"""
import os
import re
import uuid
from pathlib import Path
from typing import Any, Dict

#: the repository's root (python/tests/pgtest.py -> ../../)
REPO_ROOT = Path(__file__).resolve().parents[2]

DEFAULT_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"


def admin_dsn() -> str:
    """The DSN tests create and drop databases through."""
    return os.environ.get("ONEBEAT_TEST_PG_DSN", DEFAULT_DSN)


class Database:
    """A test database: its ``name``, a libpq ``dsn`` and the ``params`` psycopg2 parsed from it."""

    def __init__(self, name: str, dsn: str, params: Dict[str, str]) -> None:
        self.name = name
        self.dsn = dsn
        self.params = params

    def connect(self, **kwargs: Any) -> Any:
        """A new psycopg2 connection to it."""
        import psycopg2

        return psycopg2.connect(self.dsn, **kwargs)

    def django_settings(self) -> Dict[str, Any]:
        """A Django ``DATABASES`` entry for it."""
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": self.name,
            "USER": self.params.get("user", ""),
            "PASSWORD": self.params.get("password", ""),
            "HOST": self.params.get("host", ""),
            "PORT": self.params.get("port", ""),
        }

    def __repr__(self) -> str:
        return f"Database({self.name!r})"


def admin():
    import psycopg2

    connection = psycopg2.connect(admin_dsn(), connect_timeout=10)
    connection.autocommit = True
    return connection




def create_database(label: str) -> Database:
    """Creates an empty database named after ``label`` plus a random suffix."""
    from psycopg2.extensions import make_dsn, parse_dsn

    stem = re.sub(r"[^a-z0-9]+", "_", label.lower())[:30]
    name = f"onebeat_t_{stem}_{uuid.uuid4().hex[:10]}"
    connection = admin()
    try:
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
    finally:
        connection.close()
    dsn = make_dsn(admin_dsn(), dbname=name)
    return Database(name, dsn, parse_dsn(dsn))


def drop_database(database: Database) -> None:
    """Drops it, ending the sessions a failed test left behind (FORCE, PostgreSQL 13+)."""
    connection = admin()
    try:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{database.name}" WITH (FORCE)')
    finally:
        connection.close()
