"""The Celery app of onebeat's process-once crash test: one task, ``interop.once``.

Late acknowledgement (the message is acked only after the task returned) with a prefetch of one, as
teams run tasks that must not be lost: a worker that dies in a task leaves its message unacked, and
RabbitMQ gives it to the next worker, flagged redelivered. The task body is
``onebeat_interop_once.run``; the worker runs it in its own process (``--pool=solo``), so the task's
SIGKILL takes the whole worker down.
"""
from celery import Celery

import onebeat
import onebeat_interop_once

app = Celery("onebeat_interop_once")
app.conf.update(
    worker_enable_remote_control=False,
    worker_send_task_events=False,
    task_ignore_result=True,
    task_acks_late=True,
    worker_prefetch_multiplier=1,
)


@app.task(bind=True, name="interop.once", acks_late=True)
def once(self, *args, **kwargs):
    """Journals and applies the task once; records its id and whether RabbitMQ redelivered it."""
    delivery_info = self.request.delivery_info or {}
    onebeat_interop_once.run(onebeat.key(self), {
        "id": self.request.id,
        "redelivered": bool(delivery_info.get("redelivered")),
        "routing_key": delivery_info.get("routing_key"),
    })
