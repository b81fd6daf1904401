"""A task body for onebeat's crash tests of ``onebeat.process_once`` on PostgreSQL.

``run`` opens a psycopg2 connection to the database named by ``ONEBEAT_INTEROP_DSN`` (a libpq
connection string), and in one transaction journals the task's idempotency key with
``onebeat.process_once`` and, on the first processing only, writes the task's effect: a row of
``interop_effect``. After the commit it appends the run to the record file (see
``onebeat_interop_record``): the key, whether this was the first processing, and what the caller adds
(the delivery's redelivered flag, the job id).

A worker started with ``ONEBEAT_INTEROP_CRASH_MARKER`` naming a file that does not exist yet creates
that file (holding the key) on its first processing, and then SIGKILLs its own process: the effect
and the journal entry are committed, but the broker was never told the task is done. Only one run
can create the file, so only one crashes.
"""
import os
import signal

import psycopg2

import onebeat
import onebeat_interop_record

DSN_VARIABLE = "ONEBEAT_INTEROP_DSN"
CRASH_MARKER_VARIABLE = "ONEBEAT_INTEROP_CRASH_MARKER"
CONSUMER = "interop-crash"


def run(idempotency_key, details):
    """Processes the task keyed ``idempotency_key`` once; ``details`` go into its record."""
    if not idempotency_key:
        raise ValueError("the task carries no idempotency key")
    connection = psycopg2.connect(os.environ[DSN_VARIABLE])
    try:
        with onebeat.process_once(idempotency_key, consumer=CONSUMER, connection=connection) as first:
            if first:
                with connection.cursor() as cursor:
                    cursor.execute("INSERT INTO interop_effect (idempotency_key, pid) VALUES (%s, %s)",
                                   (idempotency_key, os.getpid()))
        # committed: the effect and the journal entry, or neither
        record = dict(details, key=idempotency_key, first=bool(first), pid=os.getpid())
        onebeat_interop_record.append(record)
        if first and _first_crash(idempotency_key):
            # no ack, no clean-up, no goodbye to the database or the broker
            os.kill(os.getpid(), signal.SIGKILL)
    finally:
        connection.close()


def _first_crash(idempotency_key):
    marker = os.environ.get(CRASH_MARKER_VARIABLE)
    if not marker:
        return False
    try:
        descriptor = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(idempotency_key)
    return True
