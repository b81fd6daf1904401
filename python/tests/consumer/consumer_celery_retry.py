"""The Celery app a real worker runs in ``test_consumer_celery_retry.py``: one task that retries once.

Its first attempt writes its effect, then calls ``self.retry()``: ``@onebeat.once`` rolls the effect
and the journal entry back, and the retry, a new message built by Celery from the request, must find
the same key and write the effect once. Celery before 5.3 (Debian's 5.2.6) built that message
without the custom headers.
"""
import os

import psycopg2
from celery import Celery

import onebeat

app = Celery("onebeat_retry_test", broker=os.environ.get("ONEBEAT_RETRY_BROKER", "memory://"))
app.conf.update(
    worker_enable_remote_control=False,
    worker_send_task_events=False,
    task_ignore_result=True,
    worker_hijack_root_logger=False,
)


def connect():
    return psycopg2.connect(os.environ["ONEBEAT_RETRY_DSN"])


@app.task(bind=True, name="onebeat_test.retried_once", max_retries=3)
@onebeat.once(consumer="retry-test", connect=connect)
def retried_once(self, connection):
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO test_applied (key, worker) VALUES (%s, %s)",
                       (onebeat.key(self), f"attempt-{self.request.retries}"))
    if self.request.retries == 0:
        raise self.retry(countdown=0)
    return "done"
