"""The Celery app of onebeat's interop tests: one task, registered as ``interop.record``.

The worker is started with the broker URL and the queue on its command line; this module only
keeps the worker quiet on the broker (no remote control, no events, no results), so the test
leaves nothing behind but its own queue.
"""
from celery import Celery

import onebeat_interop_record

app = Celery("onebeat_interop")
app.conf.update(
    worker_enable_remote_control=False,
    worker_send_task_events=False,
    task_ignore_result=True,
)


@app.task(bind=True, name="interop.record")
def record(self, *args, **kwargs):
    """Records its own run: the task id, name, arguments and onebeat's idempotency_key and scheduled_at headers."""
    onebeat_interop_record.append({
        "id": self.request.id,
        "task": self.name,
        "args": list(args),
        "kwargs": kwargs,
        "idempotency_key": getattr(self.request, "idempotency_key", None),
        "scheduled_at": getattr(self.request, "scheduled_at", None),
        "delivery_info": self.request.delivery_info,
    })
