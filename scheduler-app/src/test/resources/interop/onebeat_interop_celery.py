"""The Celery app of onebeat's interop tests: ``interop.record``, and ``interop.types``, which
records the Python type of each argument it got.

The worker is started with the broker URL and the queues on its command line; this module only
keeps the worker quiet on the broker (no remote control, no events, no results), so the test
leaves nothing behind but its own queues. ``ONEBEAT_INTEROP_QUEUES`` (JSON, optional) declares the
queues as a team's ``task_queues`` would, each ``{"name": ..., "arguments": {...}}`` with its
RabbitMQ arguments (a quorum queue, a priority queue).
"""
import json
import os

from celery import Celery
from kombu import Exchange, Queue

import onebeat_interop_record

app = Celery("onebeat_interop")
app.conf.update(
    worker_enable_remote_control=False,
    worker_send_task_events=False,
    task_ignore_result=True,
)

_QUEUES = json.loads(os.environ.get("ONEBEAT_INTEROP_QUEUES", "[]"))
if _QUEUES:
    app.conf.task_queues = [
        Queue(q["name"], Exchange(q["name"], type="direct"), routing_key=q["name"],
              queue_arguments=q.get("arguments") or None)
        for q in _QUEUES
    ]
if any((q.get("arguments") or {}).get("x-queue-type") == "quorum" for q in _QUEUES):
    # Celery before 5.5 asks RabbitMQ for a channel-wide prefetch, which a quorum queue refuses
    # ("540 NOT_IMPLEMENTED ... global qos"); a per-consumer prefetch is what Celery 5.5's
    # worker_detect_quorum_queues switches to, and what teams on older Celery patch in like this
    from kombu.transport import pyamqp

    pyamqp.Transport.qos_semantics_matches_spec = lambda self, connection: True


@app.task(bind=True, name="interop.record")
def record(self, *args, **kwargs):
    """Records its own run: the task id, name, arguments and onebeat's idempotency_key, scheduled_at and traceparent."""
    onebeat_interop_record.append({
        "id": self.request.id,
        "task": self.name,
        "args": list(args),
        "kwargs": kwargs,
        "idempotency_key": getattr(self.request, "idempotency_key", None),
        "scheduled_at": getattr(self.request, "scheduled_at", None),
        "traceparent": getattr(self.request, "traceparent", None),
        "delivery_info": self.request.delivery_info,
    })


def _described(value):
    """The value's Python type, spelled out inside lists and dicts: ``list[int, float]``, ``dict{a: bool}``."""
    if isinstance(value, list):
        return "list[" + ", ".join(_described(item) for item in value) + "]"
    if isinstance(value, dict):
        return "dict{" + ", ".join(f"{name}: {_described(item)}" for name, item in value.items()) + "}"
    return type(value).__name__


@app.task(bind=True, name="interop.types")
def types(self, *args, **kwargs):
    """Records its arguments as Python sees them: each one's type and repr."""
    onebeat_interop_record.append({
        "id": self.request.id,
        "task": self.name,
        "queue": (self.request.delivery_info or {}).get("routing_key"),
        "arg_types": [_described(arg) for arg in args],
        "arg_reprs": [repr(arg) for arg in args],
        "kwarg_types": {name: _described(value) for name, value in kwargs.items()},
        "kwarg_reprs": {name: repr(value) for name, value in kwargs.items()},
    })
