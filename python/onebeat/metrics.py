"""What onebeat counts, in process and optionally in ``prometheus_client``.

The names and labels are the Java worker kit's (``MicrometerWorkerMetrics``), so one dashboard
covers Java and Python consumers of the same tables:

* ``onebeat_worker_processed_total{consumer, task}``: work applied and committed;
* ``onebeat_worker_duplicates_total{consumer, task}``: a delivery skipped as already processed
  (the counter to watch: a spike means acknowledgements or timeouts let duplicates through);
* ``onebeat_worker_retried_total{consumer, task}``, ``onebeat_worker_dead_total{consumer, task}``:
  available to callers that retry or give up (onebeat itself does not retry Python tasks);
* ``onebeat_worker_throttled_total{kind}``: a call refused by a throttle window.

A missing task is the label ``""``, as in Java. The in-process counters always work (see
:func:`value` and :func:`snapshot`); they are per process, so a prefork Celery worker has one set
per child. ``prometheus_client`` is imported the first time something is counted, if it is
installed; :func:`use_prometheus` picks another registry or turns it off. Counting never raises:
a failing Prometheus counter is logged once and the in-process count still happens.
"""
import logging
import threading
from typing import Any, Dict, Optional, Tuple

log = logging.getLogger("onebeat")

PROCESSED = "onebeat_worker_processed_total"
DUPLICATES = "onebeat_worker_duplicates_total"
RETRIED = "onebeat_worker_retried_total"
DEAD = "onebeat_worker_dead_total"
THROTTLED = "onebeat_worker_throttled_total"

_HELP = {
    PROCESSED: "Tasks or messages whose effect was applied and committed",
    DUPLICATES: "Tasks or messages skipped because their key was already processed by the consumer",
    RETRIED: "Failed attempts that will be tried again",
    DEAD: "Tasks or effects that used up their attempts",
    THROTTLED: "Notifications held back by a throttle window",
}
_LABELS = {
    PROCESSED: ("consumer", "task"),
    DUPLICATES: ("consumer", "task"),
    RETRIED: ("consumer", "task"),
    DEAD: ("consumer", "task"),
    THROTTLED: ("kind",),
}

Labels = Tuple[Tuple[str, str], ...]

_lock = threading.Lock()
_counts: Dict[str, Dict[Labels, int]] = {name: {} for name in _HELP}
# None: not decided yet; False: off; otherwise {name: prometheus Counter}
_prometheus: Any = None
_prometheus_failed = False


def use_prometheus(registry: Any = True) -> bool:
    """Chooses where Prometheus counters go.

    :param registry: ``True`` for ``prometheus_client.REGISTRY`` (the default behaviour), a
        ``CollectorRegistry`` for that one, ``False`` or ``None`` to count in process only
    :return: whether Prometheus counters are now in use (False if ``prometheus_client`` is not
        installed)
    """
    global _prometheus
    with _lock:
        if registry is False or registry is None:
            _prometheus = False
            return False
        _prometheus = _make_counters(None if registry is True else registry)
        return bool(_prometheus)


def _make_counters(registry: Any) -> Any:
    try:
        import prometheus_client
    except ImportError:
        return False
    target = prometheus_client.REGISTRY if registry is None else registry
    counters = {}
    for name, help_text in _HELP.items():
        base = name[: -len("_total")]
        try:
            counters[name] = prometheus_client.Counter(base, help_text, _LABELS[name], registry=target)
        except ValueError:
            # already registered (a second registry choice, a reloaded module): reuse that collector
            existing = getattr(target, "_names_to_collectors", {}).get(base)
            if existing is None:
                log.warning("onebeat: cannot register Prometheus counter %s; counting in process only", base)
                return False
            counters[name] = existing
    return counters


def _count(name: str, labels: Labels) -> None:
    global _prometheus, _prometheus_failed
    with _lock:
        series = _counts[name]
        series[labels] = series.get(labels, 0) + 1
        if _prometheus is None:
            _prometheus = _make_counters(None)
        prometheus = _prometheus
    if prometheus:
        try:
            prometheus[name].labels(*[value for _, value in labels]).inc()
        except Exception as e:  # a metric must never fail the work it counts
            if not _prometheus_failed:
                _prometheus_failed = True
                log.warning("onebeat: Prometheus counter %s failed: %r", name, e)


def _task_labels(consumer: str, task: Optional[str]) -> Labels:
    return (("consumer", consumer), ("task", task or ""))


def processed(consumer: str, task: Optional[str] = None) -> None:
    """Counts work applied and committed."""
    _count(PROCESSED, _task_labels(consumer, task))


def duplicate(consumer: str, task: Optional[str] = None) -> None:
    """Counts a delivery skipped because its key was already processed."""
    _count(DUPLICATES, _task_labels(consumer, task))


def retried(consumer: str, task: Optional[str] = None) -> None:
    """Counts a failed attempt that will be tried again (for callers that retry)."""
    _count(RETRIED, _task_labels(consumer, task))


def dead(consumer: str, task: Optional[str] = None) -> None:
    """Counts a task given up after its last attempt (for callers that retry)."""
    _count(DEAD, _task_labels(consumer, task))


def throttled(kind: str) -> None:
    """Counts a call refused by a throttle window."""
    _count(THROTTLED, (("kind", kind),))


def value(name: str, **labels: Optional[str]) -> int:
    """The in-process count of one series, 0 if never counted.

    ``value(DUPLICATES, consumer="shop", task="orders.confirm")``; a task left out matches the
    label ``""``. For a throttle series pass ``kind=...``.

    :raises ValueError: if the name is not one of the counters above
    """
    if name not in _counts:
        raise ValueError(f"name must be one of {sorted(_counts)}, was {name!r}")
    wanted = tuple((label, labels.get(label) or "") for label in _LABELS[name])
    with _lock:
        return _counts[name].get(wanted, 0)


def total(name: str) -> int:
    """The in-process count of a counter over all its label values."""
    if name not in _counts:
        raise ValueError(f"name must be one of {sorted(_counts)}, was {name!r}")
    with _lock:
        return sum(_counts[name].values())


def snapshot() -> Dict[str, Dict[Labels, int]]:
    """A copy of every in-process series: ``{name: {((label, value), ...): count}}``."""
    with _lock:
        return {name: dict(series) for name, series in _counts.items()}


def reset() -> None:
    """Zeroes the in-process counters (tests); Prometheus counters are left alone."""
    with _lock:
        for series in _counts.values():
            series.clear()
