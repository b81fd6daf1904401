"""Fixtures of the consumer tests: a module database holding the worker kit's tables."""
from typing import Iterator

import pytest

from pgtest import REPO_ROOT, Database

#: the worker kit's tables, as Liquibase creates them for Java consumers
WORKER_KIT_SQL = REPO_ROOT / "migrations/src/main/resources/db/onebeat/worker/001-worker-kit.sql"

#: a handler's own table: one row per applied effect
EFFECT_TABLE = "CREATE TABLE test_applied (key TEXT NOT NULL, worker TEXT NOT NULL)"


@pytest.fixture(scope="module")
def worker_db(pg_database: Database) -> Iterator[Database]:
    """The module's database with ``onebeat_processed``, ``onebeat_effect``, ``onebeat_throttle`` and ``test_applied``."""
    script = WORKER_KIT_SQL.read_text(encoding="utf-8")  # liquibase formatted SQL: its markers are comments
    connection = pg_database.connect()
    try:
        with connection, connection.cursor() as cursor:
            cursor.execute(script)
            cursor.execute(EFFECT_TABLE)
    finally:
        connection.close()
    yield pg_database


@pytest.fixture
def conn(worker_db: Database) -> Iterator[object]:
    """A psycopg2 connection to the module database, closed after the test."""
    connection = worker_db.connect()
    try:
        yield connection
    finally:
        connection.close()
