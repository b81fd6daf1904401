"""key() and scheduled_at() from messages built the way onebeat's transports write them.

The Celery headers are CeleryFixtures' golden headers (transports/src/test), traced through Celery's
own worker request; the RQ meta is the exact pickle RqEncoderTest pins; the Dramatiq options are
DramatiqEncoderTest's; the arq job id is the key itself.
"""
import datetime
import json
import os
import subprocess
import sys
import uuid
from collections import namedtuple
from pathlib import Path

import pytest

import onebeat

UTC = datetime.timezone.utc
KEY = "invoice-reminders/2026-11-29T08:00:00Z/proj.tasks.add/order:42"
AT = datetime.datetime(2026, 11, 29, 8, 0, tzinfo=UTC)
TASK_ID = "99b5a4eb-7da1-561e-9dae-46d2a0cb7e8c"


def celery_headers():
    return {
        "lang": "py", "task": "proj.tasks.add", "id": TASK_ID, "shadow": None, "eta": None, "expires": None,
        "group": None, "group_index": None, "retries": 0, "timelimit": [None, None], "root_id": TASK_ID,
        "parent_id": None, "argsrepr": "(2, 3)", "kwargsrepr": "{}", "origin": "onebeat@node-1",
        "ignore_result": False, "replaced_task_nesting": 0, "stamped_headers": None, "stamps": {},
        "idempotency_key": KEY, "scheduled_at": "2026-11-29T08:00:00Z",
    }


@pytest.fixture
def celery_app():
    from celery import Celery

    return Celery("onebeat_messages_test", set_as_current=False)


def test_celery_task_run_by_the_worker_code_path(celery_app):
    from celery.app.trace import trace_task
    from celery.worker.request import Request
    from kombu import Message

    seen = {}

    @celery_app.task(bind=True, name="proj.tasks.add")
    def add(self, a, b):
        seen.update(bound=onebeat.key(self), request=onebeat.key(self.request), current=onebeat.key(),
                    at_bound=onebeat.scheduled_at(self), at_current=onebeat.scheduled_at())
        return a + b

    body = json.dumps([[2, 3], {}, {"callbacks": None, "errbacks": None, "chain": None, "chord": None}])
    message = Message(body=body.encode(), headers=celery_headers(), content_type="application/json",
                      content_encoding="utf-8", delivery_info={"exchange": "", "routing_key": "reminders"},
                      properties={"correlation_id": TASK_ID}, channel=None)
    request = Request(message, app=celery_app, task=add)
    result = trace_task(add, request.id, request.args, request.kwargs, request=request.request_dict,
                        app=celery_app)

    assert result.retval == 5
    assert seen == {"bound": KEY, "request": KEY, "current": KEY, "at_bound": AT, "at_current": AT}
    # the raw kombu message too
    assert onebeat.key(message) == KEY and onebeat.scheduled_at(message) == AT


def test_celery_task_applied_eagerly_with_headers(celery_app):
    seen = {}

    @celery_app.task(bind=True, name="proj.tasks.eager")
    def eager(self):
        seen.update(key=onebeat.key(self), current=onebeat.key(), at=onebeat.scheduled_at(self))

    eager.apply(headers={"idempotency_key": KEY, "scheduled_at": "2026-11-29T08:00:00.120Z"})
    assert seen == {"key": KEY, "current": KEY, "at": AT.replace(microsecond=120000)}


def test_a_celery_context_without_onebeat_headers_has_no_key(celery_app):
    from celery.app.task import Context

    assert onebeat.key(Context({"id": TASK_ID})) is None
    assert onebeat.scheduled_at(Context({"id": TASK_ID})) is None
    assert onebeat.key(Context(celery_headers())) == KEY


def test_outside_any_task_there_is_no_current_key():
    assert onebeat.key() is None and onebeat.scheduled_at() is None


# RqEncoderTest.metaIsThePlainPickleOfTheKeyAndTheScheduledInstant, byte for byte
def java_rq_meta(key: str, instant: str) -> bytes:
    def text(value: str) -> bytes:
        data = value.encode("utf-8")
        return b"X" + len(data).to_bytes(4, "little") + data

    return (b"\x80\x02}(" + text("idempotency_key") + text(key) + text("scheduled_at") + text(instant)
            + b"u.")


@pytest.fixture
def redis_client():
    import redis

    client = redis.Redis.from_url(os.environ.get("ONEBEAT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
                                  socket_timeout=5)
    client.ping()
    yield client
    client.close()


def rq_cleanup(client, name, job_ids):
    keys = list(client.scan_iter(match=f"*{name}*"))
    for job_id in job_ids:
        keys += [f"rq:job:{job_id}", f"rq:results:{job_id}"]
    client.delete(*keys)
    client.srem("rq:queues", f"rq:queue:{name}")
    for worker_key in list(client.smembers("rq:workers")):
        if name.encode() in (client.hget(worker_key, "queues") or b""):
            client.delete(worker_key)
            client.srem("rq:workers", worker_key)


def test_rq_job_enqueued_as_onebeat_writes_it_and_run_by_a_worker(redis_client):
    """The hash fields RqEncoder writes (data = zlib'd pickle of the call, meta = its exact bytes), run by RQ."""
    import pickle
    import zlib

    from rq import Queue, SimpleWorker
    from rq.job import Job

    name = f"onebeat-test-{uuid.uuid4().hex}"
    job_id = str(uuid.uuid4())
    key = "invoice-reminders/2026-11-29T08:00:00Z/send_reminder"
    try:
        redis_client.sadd("rq:queues", f"rq:queue:{name}")
        redis_client.hset(f"rq:job:{job_id}", mapping={
            "data": zlib.compress(pickle.dumps(("consumer_tasks.report_key", None, (), {}), protocol=2)),
            "created_at": "2026-11-29T07:55:45.944736Z", "enqueued_at": "2026-11-29T07:55:45.944736Z",
            "origin": name, "description": "consumer_tasks.report_key()", "status": "queued", "timeout": "180",
            "meta": java_rq_meta(key, "2026-11-29T08:00:00Z"),
            "success_callback_name": "", "failure_callback_name": "", "stopped_callback_name": "",
            "started_at": "", "ended_at": "", "last_heartbeat": "", "worker_name": "", "group_id": "",
        })
        redis_client.rpush(f"rq:queue:{name}", job_id)

        job = Job.fetch(job_id, connection=redis_client)
        assert onebeat.key(job) == key and onebeat.scheduled_at(job) == AT

        SimpleWorker([Queue(name, connection=redis_client)], connection=redis_client).work(burst=True)
        job = Job.fetch(job_id, connection=redis_client)
        assert job.get_status() == "finished", job.exc_info
        assert job.return_value() == {"key": key, "scheduled_at": "2026-11-29T08:00:00+00:00"}
    finally:
        rq_cleanup(redis_client, name, [job_id])


def test_rq_job_enqueued_by_rq_with_meta(redis_client):
    from rq import Queue, SimpleWorker

    name = f"onebeat-test-{uuid.uuid4().hex}"
    queue = Queue(name, connection=redis_client)
    job = None
    try:
        job = queue.enqueue("consumer_tasks.report_key",
                            meta={"idempotency_key": KEY, "scheduled_at": "2026-11-29T08:00:00.123456789Z"})
        SimpleWorker([queue], connection=redis_client).work(burst=True)
        job.refresh()
        assert job.get_status() == "finished", job.exc_info
        assert job.return_value() == {"key": KEY, "scheduled_at": "2026-11-29T08:00:00.123456+00:00"}
    finally:
        rq_cleanup(redis_client, name, [job.id] if job else [])


# DramatiqEncoderTest's message; Dramatiq keeps the options it does not know in message.options
DRAMATIQ_MESSAGE = {
    "queue_name": "default", "actor_name": "add", "args": [1, 2], "kwargs": {},
    "options": {"idempotency_key": "reports/2026-11-29T08:00:00Z/add", "scheduled_at": "2026-11-29T08:00:00Z"},
    "message_id": "6f9229c1-45c5-47ca-80d4-eb1f9a8d1e72", "message_timestamp": 1795938930663,
}
DramatiqLike = namedtuple("DramatiqLike", DRAMATIQ_MESSAGE)


def test_dramatiq_message_object_and_dict():
    message = DramatiqLike(**DRAMATIQ_MESSAGE)
    assert onebeat.key(message) == "reports/2026-11-29T08:00:00Z/add"
    assert onebeat.scheduled_at(message) == AT
    assert onebeat.key(DRAMATIQ_MESSAGE) == "reports/2026-11-29T08:00:00Z/add"
    assert onebeat.scheduled_at(DRAMATIQ_MESSAGE) == AT


def test_arq_ctx_the_job_id_is_the_key_and_the_instant_is_read_from_it():
    ctx = {"job_id": "nightly/2026-11-29T08:00:00.123Z~r42/report", "job_try": 1, "redis": object(),
           "enqueue_time": datetime.datetime.now(UTC), "score": 1}
    assert onebeat.key(ctx) == "nightly/2026-11-29T08:00:00.123Z~r42/report"
    assert onebeat.scheduled_at(ctx) == AT.replace(microsecond=123000)
    assert onebeat.scheduled_at({"job_id": uuid.uuid4().hex}) is None


def test_headers_of_the_json_kafka_amqp_and_http_transports():
    assert onebeat.key({"idempotency-key": KEY, "onebeat-scheduled-at": "2026-11-29T08:00:00Z"}) == KEY
    assert onebeat.key({"Idempotency-Key": KEY}) == KEY
    assert onebeat.scheduled_at({"Onebeat-Scheduled-At": "2026-11-29T08:00:00Z"}) == AT
    assert onebeat.key({"scheduled_at": "2026-11-29T08:00:00Z", "idempotency_key": KEY}) == KEY
    assert onebeat.key({}) is None and onebeat.key(object()) is None


@pytest.mark.parametrize("text, expected", [
    ("2026-11-29T08:00:00Z", AT),
    ("2026-11-29T08:00:00.1Z", AT.replace(microsecond=100000)),
    ("2026-11-29T08:00:00.000000001Z", AT),
    ("2026-11-29T09:30:00+01:30", AT),
    ("2026-11-29T08:00:00", AT),
    (datetime.datetime(2026, 11, 29, 8, 0), AT),
])
def test_instants_as_java_writes_them(text, expected):
    parsed = onebeat.parse_instant(text)
    assert parsed == expected and parsed.tzinfo == UTC


@pytest.mark.parametrize("text", ["yesterday", "2026-13-01T00:00:00Z", "", 1795938930])
def test_a_malformed_instant_is_refused(text):
    with pytest.raises(ValueError, match="scheduled_at"):
        onebeat.scheduled_at({"idempotency_key": "k", "scheduled_at": text})


def test_importing_onebeat_imports_no_driver_framework_or_client():
    heavy = ["psycopg2", "psycopg", "django", "celery", "redis", "rq", "prometheus_client", "kombu"]
    code = ("import sys, onebeat; "
            f"print([m for m in {heavy!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         cwd=str(Path(onebeat.__file__).resolve().parents[1])).stdout.strip()
    assert out == "[]"
