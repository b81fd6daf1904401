"""The few things onebeat does on a database connection, for psycopg2, psycopg 3 and Django.

Drivers are never imported here: a psycopg2 or psycopg connection is used through the DB-API
methods both share (``cursor()``, ``execute`` with ``%s`` placeholders, ``rowcount``, ``commit``,
``rollback``, the ``autocommit`` attribute), and Django is imported only when no connection is given.
"""
import logging
from typing import Any, Optional, Sequence

log = logging.getLogger("onebeat")


def execute(connection: Any, sql: str, params: Sequence[Any], fetch: bool = False) -> int:
    """Runs one statement on ``connection`` and returns its row count, or with ``fetch`` the number of rows returned.

    Driver errors propagate unchanged (``psycopg2.OperationalError`` when the database is down...):
    the caller's transaction is then unusable and must be rolled back.
    """
    cursor = connection.cursor()
    try:
        cursor.execute(sql, tuple(params))
        if fetch:
            return len(cursor.fetchall())
        return int(cursor.rowcount)
    finally:
        try:
            cursor.close()
        except Exception:  # a closed connection's cursor; the statement's own error matters more
            pass


def django_execute(using: Optional[str], sql: str, params: Sequence[Any], fetch: bool = False) -> int:
    """:func:`execute` on ``django.db.connections[using]`` (the default database if ``using`` is None)."""
    from django.db import DEFAULT_DB_ALIAS, connections

    with connections[using or DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, list(params))
        if fetch:
            return len(cursor.fetchall())
        return int(cursor.rowcount)


def begin(connection: Any) -> Optional[bool]:
    """Makes sure the next statement opens (or joins) a transaction rather than committing on its own.

    :return: True if the connection was in autocommit mode and was switched out of it (give it to
        :func:`restore`), else None
    """
    if getattr(connection, "autocommit", False) is True:
        connection.autocommit = False
        return True
    return None


def restore(connection: Any, previous: Optional[bool]) -> None:
    """Puts autocommit back as :func:`begin` found it; a broken connection is left as it is."""
    if previous:
        try:
            connection.autocommit = True
        except Exception as e:
            log.debug("onebeat: could not restore autocommit: %r", e)


def rollback_quietly(connection: Any, cause: BaseException) -> None:
    """Rolls back, logging (not raising) a failure so the original exception is the one the caller sees."""
    try:
        connection.rollback()
    except Exception as e:
        log.warning("onebeat: rollback failed after %r: %r", cause, e)
