"""Process-once for Python consumers on the worker kit's ``onebeat_processed`` journal.

The guard is the Java kit's (``ProcessedJournal``): ``INSERT INTO onebeat_processed (consumer,
idempotency_key) VALUES (...) ON CONFLICT DO NOTHING`` in the same transaction as the handler's
work. The insert takes (one row): the work runs and commits with the entry. It conflicts: the key
was processed by this consumer, the work is skipped. Two deliveries racing on one key are
serialised by the primary key: the second insert waits for the first transaction and then, if it
committed, finds the conflict (if it rolled back, the second one processes).

Java and Python consumers may share the table; a key is processed once per consumer name, whoever
runs it.

What happens when...

* the block raises: the transaction rolls back, journal entry included, and the exception
  propagates unchanged; the redelivery processes the key again;
* the worker dies before the commit: PostgreSQL rolls back; same as above;
* the worker dies after the commit, before acknowledging the message: the redelivery is a
  duplicate, skipped and counted;
* the database is down or the connection broken: the driver's exception (``psycopg2.OperationalError``,
  ``django.db.OperationalError``...) propagates before the block runs or at the commit; nothing
  was processed as far as the journal knows, so let the task fail and be retried;
* the commit itself fails: the driver's exception propagates and the outcome is unknown; the
  redelivery either finds the entry (a duplicate) or processes, both correct;
* the key is None, blank or longer than 320 characters, the consumer blank or longer than 200
  (characters are Unicode code points, as the columns and the Java kit count them), or either holds
  a NUL or a lone surrogate: :class:`ValueError` naming the field, before any statement.
"""
import functools
import logging
from contextlib import contextmanager
from typing import Any, Callable, ContextManager, Iterator, Optional, TypeVar, cast

from . import _checks, _db, metrics, messages
from .redis_filter import NO_FILTER, DuplicateFilter

log = logging.getLogger("onebeat")

# PRIMARY KEY(consumer, idempotency_key) is the processed-once guard (the Java kit's statement)
INSERT = ("INSERT INTO onebeat_processed (consumer, idempotency_key) VALUES (%s, %s) "
          "ON CONFLICT DO NOTHING")

F = TypeVar("F", bound=Callable[..., Any])


class MissingKeyError(ValueError):
    """The message carries no onebeat idempotency key, so it cannot be processed once."""


class Processing:
    """What :func:`process_once` yields: true for the first processing of the key, false for a duplicate.

    :ivar first: True if the journal entry was inserted now: do the work
    :ivar consumer: the consumer name
    :ivar key: the idempotency key
    :ivar task: the metrics task label, or None
    :ivar connection: the connection the journal insert ran on (None with Django)
    :ivar filtered: True if the Redis filter reported the duplicate and the database was not asked
    """

    __slots__ = ("first", "consumer", "key", "task", "connection", "filtered")

    def __init__(self, first: bool, consumer: str, key: str, task: Optional[str] = None,
                 connection: Any = None, filtered: bool = False) -> None:
        self.first = first
        self.consumer = consumer
        self.key = key
        self.task = task
        self.connection = connection
        self.filtered = filtered

    @property
    def duplicate(self) -> bool:
        """True if the key was already processed by the consumer: skip the work."""
        return not self.first

    def __bool__(self) -> bool:
        return self.first

    def __repr__(self) -> str:
        state = "first" if self.first else ("duplicate (filter)" if self.filtered else "duplicate")
        return f"<Processing {state} consumer={self.consumer!r} key={self.key!r}>"


def step_key(idempotency_key: str, step: str) -> str:
    """The journal key of one step of a compound task, as the Java kit's ``Steps``: ``<key>#<step>``.

    Process each step in its own :func:`process_once` block with this key: a retry of the task skips
    the steps already committed and resumes at the first that is not.

    :raises ValueError: if the step is blank or contains ``#``, or the resulting key is too long
    """
    _checks.text("step", step)
    if "#" in step:
        raise ValueError(f"step must be non-blank and without '#', was {step!r}")
    return _checks.key(_checks.key(idempotency_key) + "#" + step)


def process_once(idempotency_key: str, *, consumer: str, connection: Any = None,
                 using: Optional[str] = None, task: Optional[str] = None,
                 filter: Optional[DuplicateFilter] = None) -> ContextManager[Processing]:
    """Runs a block once per (consumer, key): the journal insert and the block commit together.

    ::

        with onebeat.process_once(onebeat.key(self), consumer="loyalty") as first:
            if first:
                Account.objects.filter(pk=account_id).update(points=F("points") + 500)

    :param idempotency_key: the message's key (:func:`onebeat.key`), 1 to 320 characters (Unicode code points), the same
        on every delivery
    :param consumer: who processes, 1 to 200 characters (Unicode code points), stable across deploys; each consumer has
        its own set of keys
    :param connection: a psycopg2 or psycopg 3 connection: the insert runs on it, in its current
        transaction (a connection in autocommit mode is switched out of it for the block and back
        after). On a clean exit the context manager commits, on an exception it rolls back and
        re-raises. Do the block's database work on this connection. Do not open the block inside
        psycopg 3's ``with conn.transaction():``, which forbids the explicit commit.
    :param using: with no connection, the Django database alias (default ``"default"``): the block
        runs in ``transaction.atomic(using=using)`` and the insert on ``connections[using]``. Inside
        an outer ``atomic`` the entry commits with the outer transaction, as Django savepoints do.
    :param task: the task or message type, a metrics label only
    :param filter: a :class:`onebeat.RedisDuplicateFilter` (or any :class:`onebeat.DuplicateFilter`)
        asked before the database; a key it has seen yields a duplicate without a statement (and,
        with Django, without a transaction). It is told of the key only after the commit.
    :return: a context manager yielding a :class:`Processing`, true for the first processing and
        false for a duplicate. Duplicates are logged at DEBUG (logger ``onebeat``) and counted
        (``onebeat_worker_duplicates_total``); processed keys are counted after the commit
        (``onebeat_worker_processed_total``).
    :raises ValueError: for an invalid key or consumer, or both ``connection`` and ``using``, before
        touching the database
    """
    key = _checks.key(idempotency_key)
    if connection is not None and using is not None:
        raise ValueError("give connection (psycopg) or using (Django), not both")
    name = _checks.consumer(consumer)
    task = _checks.optional_text("task", task)
    guard = NO_FILTER if filter is None else filter
    if connection is not None:
        return _on_connection(connection, name, key, task, guard)
    return _on_django(using, name, key, task, guard)


@contextmanager
def _on_connection(connection: Any, consumer: str, key: str, task: Optional[str],
                   guard: DuplicateFilter) -> Iterator[Processing]:
    if guard.seen(consumer, key):
        _duplicate(consumer, key, task, filtered=True)
        processing = Processing(False, consumer, key, task, connection, filtered=True)
    else:
        processing = None
    previous = _db.begin(connection)
    try:
        try:
            if processing is None:
                first = _db.execute(connection, INSERT, (consumer, key)) == 1
                if not first:
                    _duplicate(consumer, key, task)
                processing = Processing(first, consumer, key, task, connection)
            yield processing
        except BaseException as e:
            _db.rollback_quietly(connection, e)
            raise
        try:
            connection.commit()
        except BaseException as e:
            _db.rollback_quietly(connection, e)
            raise
    finally:
        _db.restore(connection, previous)
    _committed(processing, guard)


@contextmanager
def _on_django(using: Optional[str], consumer: str, key: str, task: Optional[str],
               guard: DuplicateFilter) -> Iterator[Processing]:
    if guard.seen(consumer, key):
        _duplicate(consumer, key, task, filtered=True)
        yield Processing(False, consumer, key, task, filtered=True)
        return
    from django.db import DEFAULT_DB_ALIAS, transaction

    alias = using or DEFAULT_DB_ALIAS
    with transaction.atomic(using=alias):
        first = _db.django_execute(alias, INSERT, (consumer, key)) == 1
        processing = Processing(first, consumer, key, task)
        if not first:
            _duplicate(consumer, key, task)
        # after the real commit, also when this atomic is nested in an outer one; never on rollback
        transaction.on_commit(functools.partial(_committed, processing, guard), using=alias)
        yield processing


def _duplicate(consumer: str, key: str, task: Optional[str], filtered: bool = False) -> None:
    metrics.duplicate(consumer, task)
    log.debug("Skipped duplicate%s consumer=%s task=%s key=%s",
              " seen by the filter" if filtered else "", consumer, task, key)


def _committed(processing: Processing, guard: DuplicateFilter) -> None:
    if processing.filtered:
        return
    if processing.first:
        metrics.processed(processing.consumer, processing.task)
    # a duplicate was committed by another delivery, so it may be marked as well
    try:
        guard.mark_processed(processing.consumer, processing.key)
    except Exception as e:  # a filter must not fail committed work
        log.warning("onebeat: duplicate filter %r failed to mark key=%s: %r", guard, processing.key, e)


def once(consumer: str, *, key: Optional[Callable[..., Optional[str]]] = None,
         connect: Optional[Callable[[], Any]] = None, connection_arg: Optional[str] = "connection",
         close: bool = True, using: Optional[str] = None, task: Optional[str] = None,
         filter: Optional[DuplicateFilter] = None, skipped: Any = None,
         missing_key: str = "raise") -> Callable[[F], F]:
    """Decorator form of :func:`process_once`: the function body runs once per message key.

    For Celery, put it below ``@app.task``; the key comes from the message being run::

        @app.task(bind=True, name="loyalty.credit_bonus")
        @onebeat.once(consumer="loyalty")                       # Django: runs in transaction.atomic()
        def credit_bonus(self, account_id):
            Account.objects.filter(pk=account_id).update(points=F("points") + 500)

        @app.task(name="shop.confirm")
        @onebeat.once(consumer="shop", connect=pool.getconn)    # psycopg: a connection per call
        def confirm(order_id, connection):
            with connection.cursor() as cur:
                cur.execute("UPDATE orders SET confirmed = true WHERE id = %s", (order_id,))
                onebeat.record_effect(onebeat.key() + "/email", destination=MAIL_URL,
                                      payload={"order": order_id}, connection=connection)

    :param consumer: the journal's consumer name (see :func:`process_once`)
    :param key: a function of the call's arguments returning the key; by default the key of the
        message: the bound task's request when the first argument is a bound Celery task, else the
        current Celery task, RQ job or Dramatiq message (:func:`onebeat.key`)
    :param connect: a connection factory (psycopg2 / psycopg 3), called once per call; the journal
        and the function share the connection, passed as the keyword argument ``connection_arg``
        (None: not passed), committed on success, rolled back on an exception, and closed after the
        call if ``close`` (pass ``close=False`` and return it to your pool yourself otherwise).
        Without ``connect``, Django's ``transaction.atomic(using=using)``.
    :param task: the metrics task label; default the Celery task's name, else the function's
        dotted name
    :param filter: a duplicate filter asked before the database (see :func:`process_once`)
    :param skipped: what the call returns for a duplicate (the function's own return otherwise)
    :param missing_key: ``"raise"`` (default): a call without a key raises :class:`MissingKeyError`
        (a Celery task fails; nothing ran); ``"run"``: the function runs unguarded, logged at WARNING
    :raises ValueError: at decoration time for an invalid consumer or ``missing_key``
    """
    name = _checks.consumer(consumer)
    if missing_key not in ("raise", "run"):
        raise ValueError(f"missing_key must be 'raise' or 'run', was {missing_key!r}")

    def decorate(func: F) -> F:
        default_task = task or f"{func.__module__}.{func.__qualname__}"

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = args[0] if args and _is_celery_task(args[0]) else None
            if key is not None:
                found = key(*args, **kwargs)
            else:
                found = messages.key(bound) if bound is not None else messages.key()
            label = task or (getattr(bound, "name", None) if bound is not None else None) or default_task
            if not found:
                if missing_key == "raise":
                    raise MissingKeyError(f"no onebeat idempotency key in the message of {label}; "
                                          f"consumer={name}")
                log.warning("Running %s without process-once: the message has no idempotency key", label)
                return func(*args, **kwargs)
            if connect is None:
                with process_once(found, consumer=name, using=using, task=label, filter=filter) as first:
                    return func(*args, **kwargs) if first else skipped
            connection = connect()
            try:
                if connection_arg:
                    kwargs[connection_arg] = connection
                with process_once(found, consumer=name, connection=connection, task=label,
                                  filter=filter) as first:
                    return func(*args, **kwargs) if first else skipped
            finally:
                if close:
                    try:
                        connection.close()
                    except Exception as e:
                        log.debug("onebeat: closing the connection failed: %r", e)

        return cast(F, wrapper)

    return decorate


def _is_celery_task(candidate: Any) -> bool:
    return (hasattr(candidate, "request") and hasattr(candidate, "apply_async")
            and hasattr(candidate, "name"))
