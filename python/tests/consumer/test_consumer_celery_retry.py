"""``self.retry()`` under a real Celery worker (Debian's 5.2.6 in CI) keeps onebeat's key.

Celery before 5.3 sends a retry without the message's custom headers; the package copies its two
headers into the request when it reads the key, so the retry carries them. The worker consumes a
Redis queue of its own; the task (``consumer_celery_retry``) writes its effect, retries once, and
the retry writes it again under the same key.
"""
import os
import subprocess
import sys
import time
import uuid

import pytest
import redis

from pgtest import REPO_ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
REDIS_URL = os.environ.get("ONEBEAT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
TASK = "onebeat_test.retried_once"


@pytest.fixture
def queue():
    name = f"onebeat-test-retry-{uuid.uuid4().hex}"
    yield name
    client = redis.Redis.from_url(REDIS_URL)
    client.delete(name, f"_kombu.binding.{name}")
    client.close()


@pytest.fixture
def worker(worker_db, queue, tmp_path):
    """A Celery worker (solo pool) on the queue, its log in a file; stopped after the test."""
    env = dict(os.environ, ONEBEAT_RETRY_BROKER=REDIS_URL, ONEBEAT_RETRY_DSN=worker_db.dsn,
               PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([HERE, str(REPO_ROOT / "python")]))
    log = tmp_path / "worker.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "consumer_celery_retry", "worker", "--pool=solo", "-Q", queue,
             "-n", f"{queue}@%h", "--without-mingle", "--without-gossip", "--without-heartbeat", "-l", "INFO"],
            cwd=HERE, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def rows(connection, sql, key):
    connection.rollback()
    with connection.cursor() as cursor:
        cursor.execute(sql, (key,))
        return cursor.fetchall()


def test_a_task_retried_with_self_retry_runs_its_effect_once_under_the_same_key(worker, queue, conn):
    import consumer_celery_retry

    key = f"retried/2026-11-29T08:00:00Z/{uuid.uuid4().hex}"
    consumer_celery_retry.app.conf.broker_url = REDIS_URL
    consumer_celery_retry.app.send_task(
        TASK, queue=queue, task_id=str(uuid.uuid5(uuid.NAMESPACE_URL, key)),
        headers={"idempotency_key": key, "scheduled_at": "2026-11-29T08:00:00Z"})

    deadline = time.monotonic() + 90
    applied = []
    while time.monotonic() < deadline:
        applied = rows(conn, "SELECT worker FROM test_applied WHERE key = %s", key)
        log = worker.read_text()
        if applied or "MissingKeyError" in log or "raised unexpected" in log:
            break
        time.sleep(0.2)
    log = worker.read_text()
    assert "MissingKeyError" not in log, log
    assert applied == [("attempt-1",)], log  # the first attempt rolled back, the retry wrote it once
    assert rows(conn, "SELECT consumer FROM onebeat_processed WHERE idempotency_key = %s", key) == [("retry-test",)]
    assert "Retry in 0s" in log, log
