""""At most one notification of kind K per subject per window", the Java kit's ``Throttle``.

One conditional upsert on ``onebeat_throttle``: the row is created, or its window moved forward
only if the previous one has ended. Concurrent callers queue on the row lock and re-check the
condition against the winner's new window, so exactly one of them acquires; there is no
SELECT-then-INSERT gap. Java and Python callers share the rows.
"""
import datetime
import logging
from typing import Any, Optional, Union

from . import _checks, _db, metrics

log = logging.getLogger("onebeat")

# PRIMARY KEY(kind, subject) and the WHERE on the current window make one acquisition per window.
# The Java statement; the cast only pins the parameter's type for drivers that bind server-side.
ACQUIRE = ("INSERT INTO onebeat_throttle (kind, subject, until) "
           "VALUES (%s, %s, now() + CAST(%s AS bigint) * interval '1 millisecond') "
           "ON CONFLICT (kind, subject) DO UPDATE SET until = EXCLUDED.until "
           "WHERE onebeat_throttle.until <= now() RETURNING 1")


def throttle(kind: str, subject: str, window: Union[datetime.timedelta, int, float], *,
             connection: Any = None, using: Optional[str] = None) -> bool:
    """Takes the (kind, subject) window if the previous one has ended.

    Windows are measured with the database's ``now()``, the start of the transaction: call it in a
    short transaction, typically inside the :func:`onebeat.process_once` block that decides to
    notify, and record the notification there (:func:`onebeat.record_effect`). An acquisition made
    in a transaction that rolls back is released with it.

    :param kind: the notification kind, 1 to 100 characters (Unicode code points)
    :param subject: who it is about (a user id), 1 to 200 characters (Unicode code points)
    :param window: a ``timedelta`` or seconds; at least one millisecond (whole milliseconds,
        truncated, as Java's ``Duration.toMillis``)
    :param connection: a psycopg2 / psycopg 3 connection; the statement runs in its current
        transaction (or commits at once in autocommit mode). onebeat does not commit it.
    :param using: with no connection, the Django database alias; the statement runs on
        ``connections[using]``, in the current ``atomic`` block if any, else in autocommit
    :return: True if the caller may send now; False if the current window is held (counted as
        ``onebeat_worker_throttled_total{kind}`` and logged at DEBUG)
    :raises ValueError: for a blank or too long kind or subject, or a window under a millisecond
    :raises Exception: the driver's error if the statement failed (database down...): whether the
        window was taken is then unknown, and the transaction must be rolled back
    """
    _checks.text("kind", kind, _checks.MAX_KIND)
    _checks.text("subject", subject, _checks.MAX_SUBJECT)
    millis = window_millis(window)
    params = (kind, subject, millis)
    if connection is not None:
        acquired = _db.execute(connection, ACQUIRE, params, fetch=True) > 0
    else:
        acquired = _db.django_execute(using, ACQUIRE, params, fetch=True) > 0
    if not acquired:
        metrics.throttled(kind)
        log.debug("Throttled kind=%s subject=%s window=%sms", kind, subject, millis)
    return acquired


def window_millis(window: Union[datetime.timedelta, int, float]) -> int:
    """A window in whole milliseconds.

    :raises ValueError: if it is not a timedelta or a number of seconds, or under one millisecond
    """
    if isinstance(window, datetime.timedelta):
        millis = window // datetime.timedelta(milliseconds=1)
    elif isinstance(window, (int, float)) and not isinstance(window, bool):
        millis = int(window * 1000)
    else:
        raise ValueError(f"window must be a timedelta or seconds, was {window!r}")
    if millis < 1:
        raise ValueError(f"window must be at least one millisecond, was {window!r}")
    return millis
