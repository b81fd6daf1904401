"""Reading onebeat's idempotency key and scheduled instant from the message a worker is running.

Where onebeat's transports put them (``transports/src/main/java/dev/onebeat/transport``):

=============  ==========================================  ===========================================
library        idempotency key                             scheduled instant (ISO-8601 UTC)
=============  ==========================================  ===========================================
Celery         header ``idempotency_key``                  header ``scheduled_at``
RQ             ``job.meta["idempotency_key"]``             ``job.meta["scheduled_at"]``
Dramatiq       ``message.options["idempotency_key"]``      ``message.options["scheduled_at"]``
arq            the job id, ``ctx["job_id"]``               not sent: read from the key, whose second
                                                           ``/`` segment is the instant
JSON / Kafka   ``idempotency_key`` field, header           ``scheduled_at`` field, header
AMQP / HTTP    ``idempotency-key`` / ``Idempotency-Key``   ``onebeat-scheduled-at``
=============  ==========================================  ===========================================

A Celery protocol-2 worker builds the task's request from the message headers, so the key is the
attribute ``self.request.idempotency_key``; an eagerly applied task (``apply(headers=...)``) keeps
them in ``self.request.headers``. Both are read.

Nothing here imports Celery, RQ or Dramatiq: the "current" task, job or message is looked up only
in libraries the process has already imported.
"""
import datetime
import re
import sys
from collections.abc import Mapping
from typing import Any, Optional, Tuple

KEY_FIELD = "idempotency_key"
SCHEDULED_AT_FIELD = "scheduled_at"

# names under which the key and the instant travel, by transport (see the table above)
_KEY_NAMES = (KEY_FIELD, "idempotency-key")
_SCHEDULED_AT_NAMES = (SCHEDULED_AT_FIELD, "onebeat-scheduled-at")

# Java's Instant.toString (ISO_INSTANT): 2026-11-29T08:00:00Z, 2026-11-29T08:00:00.120Z, up to nine
# fraction digits; offsets and a missing zone (read as UTC, as Celery does) are accepted as well
_INSTANT = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?"
    r"(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$")


def key(source: Any = None) -> Optional[str]:
    """The onebeat idempotency key of a message, or None if it carries none.

    :param source: a bound Celery task (``self``) or its ``request`` (a Celery ``Context``), a kombu
        message, an RQ ``Job``, a Dramatiq ``Message`` (or any object with an ``options`` dict, or
        the message as a dict), an arq ``ctx`` dict (the key is ``ctx["job_id"]``), or a plain
        mapping of headers / JSON fields. None: the Celery task running in this thread, else the
        current RQ job, else the current Dramatiq message (with the ``CurrentMessage`` middleware).
    :return: the key; None if the source (or, with no source, the current task) has no key, or if
        there is no current task at all. Never raises for a missing key: callers that need one
        check for None (:func:`onebeat.once` raises :class:`onebeat.MissingKeyError`).
    :raises ValueError: if the key is present but not text
    """
    raw, _ = _fields(source)
    if raw is None:
        return None
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8")
    if not isinstance(raw, str):
        raise ValueError(f"idempotency_key must be text, was {type(raw).__name__}: {raw!r}")
    return raw or None


def scheduled_at(source: Any = None) -> Optional[datetime.datetime]:
    """The fire's logical scheduled instant, as a timezone-aware UTC datetime, or None if absent.

    Same ``source`` as :func:`key`. For arq, which carries no instant, it is read from the key
    (``job/2026-11-29T08:00:00Z/task``, a run id after ``~`` ignored); a key not in that shape gives
    None. Sub-microsecond digits (Java writes up to nanoseconds) are truncated.

    :raises ValueError: if an instant is present but is not an ISO-8601 date-time
    """
    raw_key, raw = _fields(source)
    if raw is None:
        if isinstance(source, Mapping) and "job_id" in source and isinstance(raw_key, str):
            return instant_from_key(raw_key)
        return None
    return parse_instant(raw)


def parse_instant(value: Any) -> datetime.datetime:
    """Parses what onebeat writes for an instant (Java's ``Instant.toString()``) into an aware UTC datetime.

    Accepts ``Z``, ``+hh:mm`` offsets and no zone (UTC), one to nine fraction digits, a ``datetime``
    (naive means UTC) and bytes.

    :raises ValueError: naming the value if it is not such a date-time
    """
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=datetime.timezone.utc)
        return value.astimezone(datetime.timezone.utc)
    if isinstance(value, bytes):
        value = value.decode("utf-8")
    if not isinstance(value, str):
        raise ValueError(f"scheduled_at must be an ISO-8601 instant, was {type(value).__name__}: {value!r}")
    match = _INSTANT.match(value.strip())
    if match is None:
        raise ValueError(f"scheduled_at must be an ISO-8601 instant such as 2026-11-29T08:00:00Z, was {value!r}")
    year, month, day, hour, minute, second, fraction, _, sign, off_h, off_m = match.groups()
    micros = int((fraction or "0")[:6].ljust(6, "0"))
    zone = datetime.timezone.utc
    if sign:
        offset = datetime.timedelta(hours=int(off_h), minutes=int(off_m))
        zone = datetime.timezone(-offset if sign == "-" else offset)
    try:
        parsed = datetime.datetime(int(year), int(month), int(day), int(hour), int(minute),
                                   int(second or 0), micros, tzinfo=zone)
    except ValueError as e:
        raise ValueError(f"scheduled_at is not a valid date-time: {value!r} ({e})") from None
    return parsed.astimezone(datetime.timezone.utc)


def instant_from_key(idempotency_key: str) -> Optional[datetime.datetime]:
    """The scheduled instant written in a onebeat key (``job/<instant>[~run]/task[/entity]``), or None.

    onebeat percent-encodes ``/`` and ``~`` inside the job name, so the second segment is always
    the instant; a key made by someone else usually is not in this shape and gives None.
    """
    parts = idempotency_key.split("/")
    if len(parts) < 3:
        return None
    try:
        return parse_instant(parts[1].split("~", 1)[0])
    except ValueError:
        return None


def _fields(source: Any) -> Tuple[Any, Any]:
    """(raw key, raw instant) of a source, either None when absent."""
    if source is None:
        source = current_message()
        if source is None:
            return None, None
    if isinstance(source, Mapping):
        return _from_mapping(source)
    request = getattr(source, "request", None)
    if request is not None and _looks_like_celery_task(source):
        source = request
    found = _from_object(source)
    _keep_for_retry(source, *found)
    return found


def _keep_for_retry(request: Any, raw_key: Any, raw_instant: Any) -> None:
    """Copies onebeat's headers into a Celery worker request's ``headers``, so that ``self.retry()`` sends them.

    A worker builds the request from the message's headers, and Celery before 5.3 builds a retry's
    message from ``request.headers`` (None on a worker), so the retry lost the key and the retried
    task could not be processed once. Adding them there makes the retry carry the same key and instant.
    """
    if raw_key is None or not _is_celery_request(request):
        return
    headers = getattr(request, "headers", None)
    if headers is None:
        headers = {}
    elif not isinstance(headers, dict):
        return
    wanted = {KEY_FIELD: raw_key}
    if raw_instant is not None:
        wanted[SCHEDULED_AT_FIELD] = raw_instant
    if all(headers.get(name) == value for name, value in wanted.items()):
        return
    try:
        request.headers = {**headers, **wanted}
    except Exception:  # a request that cannot take it retries as Celery does
        pass


def _is_celery_request(source: Any) -> bool:
    kind = type(source)
    return kind.__name__ == "Context" and kind.__module__.startswith("celery.")


def _looks_like_celery_task(source: Any) -> bool:
    # a bound task has a name and a request; a kombu message or an RQ job has no ``request``
    return hasattr(source, "name") and hasattr(source, "apply_async")


def _from_mapping(source: Mapping) -> Tuple[Any, Any]:
    options = source.get("options")
    if isinstance(options, Mapping) and ("actor_name" in source or "message_id" in source):
        return options.get(KEY_FIELD), options.get(SCHEDULED_AT_FIELD)  # a Dramatiq message as a dict
    if "job_id" in source and not any(_lookup(source, n) is not None for n in _KEY_NAMES):
        return source.get("job_id"), None  # an arq ctx: the job id is onebeat's key
    return _first(source, _KEY_NAMES), _first(source, _SCHEDULED_AT_NAMES)


def _from_object(source: Any) -> Tuple[Any, Any]:
    meta = getattr(source, "meta", None)  # an RQ job
    if isinstance(meta, Mapping) and (KEY_FIELD in meta or SCHEDULED_AT_FIELD in meta):
        return meta.get(KEY_FIELD), meta.get(SCHEDULED_AT_FIELD)
    options = getattr(source, "options", None)  # a Dramatiq message
    if isinstance(options, Mapping) and (KEY_FIELD in options or SCHEDULED_AT_FIELD in options):
        return options.get(KEY_FIELD), options.get(SCHEDULED_AT_FIELD)
    # a Celery Context from a worker: the headers are its attributes
    raw_key = _attribute(source, KEY_FIELD)
    raw_instant = _attribute(source, SCHEDULED_AT_FIELD)
    if raw_key is not None or raw_instant is not None:
        return raw_key, raw_instant
    # an eagerly applied Celery task's Context, or a kombu / AMQP message
    headers = getattr(source, "headers", None)
    if isinstance(headers, Mapping):
        return _first(headers, _KEY_NAMES), _first(headers, _SCHEDULED_AT_NAMES)
    return None, None


def _attribute(source: Any, name: str) -> Any:
    found = getattr(source, "__dict__", {}).get(name)
    if found is None:
        # Celery's Context also answers get(); objects with __slots__ have no __dict__
        getter = getattr(type(source), "get", None)
        if callable(getter) and not isinstance(source, type):
            try:
                found = source.get(name)
            except Exception:
                found = None
    return found


def _lookup(source: Mapping, name: str) -> Any:
    if name in source:
        return source[name]
    lowered = name.lower()
    for candidate, value in source.items():
        if isinstance(candidate, str) and candidate.lower() == lowered:
            return value
    return None


def _first(source: Mapping, names: Tuple[str, ...]) -> Any:
    for name in names:
        found = _lookup(source, name)
        if found is not None:
            return found
    return None


def current_message() -> Any:
    """The message this thread is working on: the current Celery task's request, else the current RQ job,
    else the current Dramatiq message (needs the ``CurrentMessage`` middleware); None if there is none.

    Only libraries already imported by the process are asked, so this never imports Celery, RQ or
    Dramatiq, and a library failing to answer counts as "no current message".
    """
    if "celery" in sys.modules:
        try:
            from celery import current_task

            task = current_task._get_current_object()
            if task is not None:
                request = task.request
                if request is not None and not getattr(request, "called_directly", True):
                    return request
        except Exception:
            pass
    if "rq" in sys.modules:
        try:
            from rq import get_current_job

            job = get_current_job()
            if job is not None:
                return job
        except Exception:
            pass
    if "dramatiq" in sys.modules:
        try:
            from dramatiq.middleware import CurrentMessage

            message = CurrentMessage.get_current_message()
            if message is not None:
                return message
        except Exception:
            pass
    return None


TRACEPARENT_FIELD = "traceparent"
TRACESTATE_FIELD = "tracestate"
_TRACEPARENT = re.compile(r"[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")


def _valid_traceparent(value: str) -> bool:
    """W3C's rules, as onebeat's Java side checks them: the shape, version not ff, ids not all zero."""
    return (_TRACEPARENT.fullmatch(value) is not None and not value.startswith("ff")
            and value[3:35] != "0" * 32 and value[36:52] != "0" * 16)


def trace_context(source: Any = None) -> Optional[dict]:
    """The W3C trace context onebeat sent with a message, as a carrier for OpenTelemetry, or None.

    With tracing on (``management.tracing.export.enabled``), every message carries the relay's publish span,
    a child of the span of the fire that dispatched the task: Celery in its headers (``self.request.traceparent``),
    RQ in ``job.meta``, Dramatiq in ``message.options``, Kafka / AMQP / HTTP in their headers, the in-database
    queue in the payload's ``trace``. arq has no place for it.

    :param source: as for :func:`key`; None: the current Celery task, RQ job or Dramatiq message
    :return: ``{"traceparent": ..., "tracestate": ...}`` (``tracestate`` only when sent), ready for
        ``TraceContextTextMapPropagator().extract(carrier)``; None when the message carries no valid context
    """
    fields = _trace_fields(source)
    if fields is None:
        return None
    parent = fields.get(TRACEPARENT_FIELD)
    if isinstance(parent, bytes):
        parent = parent.decode("utf-8")
    if not isinstance(parent, str) or not _valid_traceparent(parent):
        return None
    carrier = {TRACEPARENT_FIELD: parent}
    state = fields.get(TRACESTATE_FIELD)
    if isinstance(state, bytes):
        state = state.decode("utf-8")
    if isinstance(state, str) and state and all(" " <= ch <= "~" for ch in state):
        carrier[TRACESTATE_FIELD] = state
    return carrier


def trace_id(source: Any = None) -> Optional[str]:
    """The 32 hex digits of the trace a message belongs to (see :func:`trace_context`), or None."""
    carrier = trace_context(source)
    return None if carrier is None else carrier[TRACEPARENT_FIELD][3:35]


class consumer_span:  # noqa: N801 - used like a function: ``with onebeat.consumer_span("send"):``
    """A context manager: the span of the task's work, child of the publish span onebeat sent, when
    ``opentelemetry`` is importable; a message without a context gets a span under the current context instead.
    Without ``opentelemetry`` it does nothing and yields None.

    :param name: the span's name
    :param source: as for :func:`trace_context`
    """

    def __init__(self, name: str, source: Any = None):
        self._name = name
        self._source = source
        self._manager = None

    def __enter__(self) -> Any:
        carrier = trace_context(self._source)
        try:
            from opentelemetry import trace
            from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
        except ImportError:
            return None
        context = TraceContextTextMapPropagator().extract(carrier) if carrier is not None else None
        self._manager = trace.get_tracer("onebeat").start_as_current_span(
            self._name, context=context, kind=trace.SpanKind.CONSUMER)
        return self._manager.__enter__()

    def __exit__(self, *exc_info: Any) -> Any:
        if self._manager is None:
            return None
        return self._manager.__exit__(*exc_info)


def _trace_fields(source: Any) -> Optional[Mapping]:
    """The mapping a source keeps its trace fields in, or None."""
    if source is None:
        source = current_message()
        if source is None:
            return None
    if isinstance(source, (list, tuple)):  # Kafka clients' headers: [(name, bytes), ...]
        source = {name: value for name, value in source if isinstance(name, str)}
    if isinstance(source, Mapping):
        options = source.get("options")
        if isinstance(options, Mapping) and ("actor_name" in source or "message_id" in source):
            return options  # a Dramatiq message as a dict
        stored = source.get("trace")
        if isinstance(stored, Mapping):
            return stored  # an in-database task's payload
        return {name: _lookup(source, name) for name in (TRACEPARENT_FIELD, TRACESTATE_FIELD)}
    request = getattr(source, "request", None)
    if request is not None and _looks_like_celery_task(source):
        source = request
    for holder in ("meta", "options"):  # an RQ job, a Dramatiq message
        found = getattr(source, holder, None)
        if isinstance(found, Mapping) and TRACEPARENT_FIELD in found:
            return found
    parent = _attribute(source, TRACEPARENT_FIELD)  # a Celery Context from a worker
    if parent is not None:
        return {TRACEPARENT_FIELD: parent, TRACESTATE_FIELD: _attribute(source, TRACESTATE_FIELD)}
    headers = getattr(source, "headers", None)  # an eagerly applied task, a kombu message
    if isinstance(headers, Mapping):
        return {name: _lookup(headers, name) for name in (TRACEPARENT_FIELD, TRACESTATE_FIELD)}
    return None
