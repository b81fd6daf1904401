"""The Redis duplicate filter against a real Redis (127.0.0.1:6379, or ONEBEAT_TEST_REDIS_URL), and a Redis that is down."""
import logging
import os
import socket
import uuid

import pytest
import redis

import onebeat
from pgtest import REPO_ROOT

#: the golden keys the Java kit's RedisDuplicateFilterKeysTest checks too
GOLDEN_KEYS = REPO_ROOT / "worker-kit/src/test/resources/dev/onebeat/worker/journal/redis-filter-keys.tsv"

REDIS_URL = os.environ.get("ONEBEAT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def client():
    connection = redis.Redis.from_url(REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    connection.ping()
    yield connection
    connection.close()


@pytest.fixture
def prefix(client):
    value = f"onebeat-test-{uuid.uuid4().hex}:processed"
    yield value
    keys = list(client.scan_iter(match=value + ":*"))
    if keys:
        client.delete(*keys)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once the probe is closed


def journal_rows(connection, key):
    connection.rollback()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM onebeat_processed WHERE idempotency_key = %s", (key,))
        return cursor.fetchone()[0]


def test_keys_are_the_java_filters(client, prefix):
    flt = onebeat.RedisDuplicateFilter(client, prefix, ttl=60)
    assert flt.redis_key("shop", "a/b:c") == f"{prefix}:shop:a/b%3Ac"


def test_keys_are_the_golden_ones_the_java_filter_writes_too(client):
    rows = [line.split("\t") for line in GOLDEN_KEYS.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    assert len(rows) >= 10 and all(len(row) == 4 for row in rows)
    for prefix, consumer, key, expected in rows:
        assert onebeat.RedisDuplicateFilter(client, prefix, ttl=60).redis_key(consumer, key) == expected


def test_a_consumer_and_key_sharing_their_joined_text_get_different_keys(client):
    flt = onebeat.RedisDuplicateFilter(client, "onebeat:processed", ttl=60)
    assert flt.redis_key("shop:eu", "orders") != flt.redis_key("shop", "eu:orders")
    assert flt.redis_key("shop", "a%3Ab") != flt.redis_key("shop", "a:b")
    assert (onebeat.RedisDuplicateFilter(client, "onebeat:processed:eu", ttl=60).redis_key("shop", "orders")
            != flt.redis_key("eu", "shop:orders"))


def test_one_consumers_mark_does_not_answer_for_another_whose_key_joins_to_the_same_text(client, prefix, conn):
    flt = onebeat.RedisDuplicateFilter(client, prefix, ttl=60)
    suffix = uuid.uuid4().hex
    with onebeat.process_once(f"{suffix}:orders", consumer="shop", connection=conn, filter=flt) as first:
        assert first
    assert not flt.seen(f"shop:{suffix}", "orders")
    with onebeat.process_once("orders", consumer=f"shop:{suffix}", connection=conn, filter=flt) as other:
        assert other, "the other consumer's key was taken for processed"


def test_a_key_is_marked_only_after_the_commit_and_then_short_circuits(client, prefix, conn):
    flt = onebeat.RedisDuplicateFilter(client, prefix, ttl=120)
    key = f"filter/{uuid.uuid4().hex}"
    redis_key = flt.redis_key("shop", key)

    with pytest.raises(RuntimeError):
        with onebeat.process_once(key, consumer="shop", connection=conn, filter=flt) as first:
            assert first
            raise RuntimeError("rolled back")
    assert not client.exists(redis_key), "a rolled-back attempt must not be marked"

    with onebeat.process_once(key, consumer="shop", connection=conn, filter=flt) as first:
        assert first
        assert not client.exists(redis_key), "marked before the commit"
    assert client.get(redis_key) == b"1"
    assert 0 < client.ttl(redis_key) <= 120

    # the filter now answers before the database: drop the journal row to prove it was not asked
    with conn.cursor() as cursor:
        cursor.execute("DELETE FROM onebeat_processed WHERE idempotency_key = %s", (key,))
    conn.commit()
    with onebeat.process_once(key, consumer="shop", connection=conn, filter=flt) as again:
        assert not again and again.filtered
    assert journal_rows(conn, key) == 0


def test_a_duplicate_found_by_the_journal_is_marked_too(client, prefix, conn):
    key = f"filter/{uuid.uuid4().hex}"
    with onebeat.process_once(key, consumer="shop", connection=conn):
        pass
    flt = onebeat.RedisDuplicateFilter(client, prefix, ttl=60)
    with onebeat.process_once(key, consumer="shop", connection=conn, filter=flt) as second:
        assert not second and not second.filtered
    assert client.exists(flt.redis_key("shop", key))


def test_redis_down_still_processes_through_the_database_and_warns_once(conn, caplog):
    down = redis.Redis(host="127.0.0.1", port=closed_port(), socket_timeout=0.5, socket_connect_timeout=0.5)
    now = [100.0]
    flt = onebeat.RedisDuplicateFilter(down, "onebeat-test-down", ttl=60, pause=5, clock=lambda: now[0])
    key = f"down/{uuid.uuid4().hex}"
    with caplog.at_level(logging.INFO, logger="onebeat"):
        with onebeat.process_once(key, consumer="shop", connection=conn, filter=flt) as first:
            assert first
        with onebeat.process_once(key, consumer="shop", connection=conn, filter=flt) as second:
            assert not second and not second.filtered  # the journal decided
        now[0] += 6  # after the pause Redis is tried again, and fails again
        with onebeat.process_once(f"down/{uuid.uuid4().hex}", consumer="shop", connection=conn,
                                  filter=flt) as third:
            assert third
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "unavailable" in r.getMessage()]
    assert len(warnings) == 1
    assert journal_rows(conn, key) == 1


def test_the_filter_recovers_when_redis_answers_again(client, prefix, caplog):
    class Flaky:
        fail = True

        def exists(self, name):
            if self.fail:
                raise redis.ConnectionError("down")
            return client.exists(name)

        def set(self, *args, **kwargs):
            return client.set(*args, **kwargs)

    flaky = Flaky()
    flt = onebeat.RedisDuplicateFilter(flaky, prefix, ttl=60, pause=0)
    with caplog.at_level(logging.INFO, logger="onebeat"):
        assert not flt.seen("shop", "k")
        flaky.fail = False
        flt.mark_processed("shop", "k")
        assert flt.seen("shop", "k")
    assert any("available again" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("arguments, field", [
    (dict(prefix=" "), "prefix"), (dict(ttl=0.5), "ttl"), (dict(pause=-1), "pause"), (dict(ttl="1"), "ttl"),
])
def test_filter_settings_are_checked(arguments, field):
    with pytest.raises(ValueError, match=field):
        onebeat.RedisDuplicateFilter(object(), **arguments)
