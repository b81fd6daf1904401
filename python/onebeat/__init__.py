"""onebeat for Python consumers: redelivery made harmless, on the Java worker kit's tables.

Brokers deliver at least once. The pieces here make a second delivery of a onebeat task a no-op,
sharing ``onebeat_processed``, ``onebeat_effect`` and ``onebeat_throttle`` (and the Redis filter's
keys and the metric names) with Java consumers:

* :func:`key`, :func:`scheduled_at`: what onebeat put in the Celery / RQ / Dramatiq / arq message;
* :func:`trace_context`, :func:`trace_id`, :class:`consumer_span`: the trace from the fire to this task;
* :func:`process_once` (context manager) and :func:`once` (decorator): the journal insert and the
  handler's work in one transaction;
* :func:`record_effect`: an e-mail / push / HTTP call recorded in that transaction, sent by the
  Java ``EffectSender`` after the commit;
* :func:`throttle`: at most one notification of a kind per subject per window;
* :class:`RedisDuplicateFilter`: drops obvious duplicates before the database;
* :mod:`onebeat.metrics`: in-process and Prometheus counters.

Importing this package imports no driver, Django, Celery, RQ or Redis: each is imported when a
call needs it.
"""
from . import metrics
from .effects import record_effect
from .journal import MissingKeyError, Processing, once, process_once, step_key
from .messages import consumer_span, current_message, key, parse_instant, scheduled_at, trace_context, trace_id
from .redis_filter import NO_FILTER, DuplicateFilter, RedisDuplicateFilter
from .throttle import throttle

__version__ = "0.1.0"

__all__ = [
    "DuplicateFilter",
    "MissingKeyError",
    "NO_FILTER",
    "Processing",
    "RedisDuplicateFilter",
    "consumer_span",
    "current_message",
    "key",
    "metrics",
    "once",
    "parse_instant",
    "process_once",
    "record_effect",
    "scheduled_at",
    "step_key",
    "throttle",
    "trace_context",
    "trace_id",
]
