"""process_once and once on the worker kit's journal, with psycopg2 and with Django, on real PostgreSQL."""
import logging
import uuid

import psycopg2
import pytest

import consumer_workers
import onebeat
from onebeat import metrics

WORKERS = 8


def unique(label: str) -> str:
    return f"test-{label}/2026-11-29T08:00:00Z/{uuid.uuid4().hex}"


def count(connection, sql: str, *params) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0]


def journal_rows(connection, consumer: str, key: str) -> int:
    connection.rollback()
    return count(connection, "SELECT count(*) FROM onebeat_processed WHERE consumer = %s AND idempotency_key = %s",
                 consumer, key)


def applied_rows(connection, key: str) -> int:
    connection.rollback()
    return count(connection, "SELECT count(*) FROM test_applied WHERE key = %s", key)


@pytest.mark.parametrize("flavour", ["psycopg2", "django"])
def test_eight_processes_racing_on_one_key_apply_the_work_exactly_once(worker_db, conn, flavour):
    key = unique("race-" + flavour)
    consumer = "race-" + flavour
    if flavour == "psycopg2":
        calls = [(consumer_workers.journal_psycopg2, worker_db.dsn, key, consumer, f"w{i}", 0.3)
                 for i in range(WORKERS)]
    else:
        calls = [(consumer_workers.journal_django, worker_db.django_settings(), key, consumer, f"w{i}", 0.3)
                 for i in range(WORKERS)]

    results = consumer_workers.run_many(calls, barrier_parties=WORKERS)

    assert sum(r["first"] for r in results) == 1
    assert sum(r["duplicates"] for r in results) == WORKERS - 1
    assert sum(r["processed"] for r in results) == 1
    assert applied_rows(conn, key) == 1
    assert journal_rows(conn, consumer, key) == 1


def test_rollback_in_the_block_leaves_no_entry_and_the_retry_processes(conn):
    key = unique("rollback")

    with pytest.raises(ZeroDivisionError):
        with onebeat.process_once(key, consumer="shop", connection=conn) as first:
            assert first
            with conn.cursor() as cursor:
                cursor.execute("INSERT INTO test_applied (key, worker) VALUES (%s, 'attempt-1')", (key,))
            1 / 0

    assert journal_rows(conn, "shop", key) == 0
    assert applied_rows(conn, key) == 0

    with onebeat.process_once(key, consumer="shop", connection=conn) as first:
        assert first
        with conn.cursor() as cursor:
            cursor.execute("INSERT INTO test_applied (key, worker) VALUES (%s, 'attempt-2')", (key,))

    assert journal_rows(conn, "shop", key) == 1
    assert applied_rows(conn, key) == 1


def test_a_duplicate_is_skipped_counted_and_logged(conn, caplog):
    key = unique("duplicate")
    with onebeat.process_once(key, consumer="shop", connection=conn, task="orders.confirm") as first:
        assert first and not first.duplicate
    before = metrics.value(metrics.DUPLICATES, consumer="shop", task="orders.confirm")

    with caplog.at_level(logging.DEBUG, logger="onebeat"):
        with onebeat.process_once(key, consumer="shop", connection=conn, task="orders.confirm") as second:
            assert not second
            assert second.duplicate and second.key == key and second.consumer == "shop"

    assert metrics.value(metrics.DUPLICATES, consumer="shop", task="orders.confirm") == before + 1
    assert any("Skipped duplicate" in r.getMessage() and key in r.getMessage() for r in caplog.records)
    # another consumer has its own set of keys
    with onebeat.process_once(key, consumer="billing", connection=conn) as other:
        assert other


def test_prometheus_counters_carry_the_java_names_and_labels(conn):
    prometheus_client = pytest.importorskip("prometheus_client")
    key = unique("prometheus")
    labels = {"consumer": "prom", "task": "t"}
    before = prometheus_client.REGISTRY.get_sample_value("onebeat_worker_duplicates_total", labels) or 0
    for _ in range(3):
        with onebeat.process_once(key, consumer="prom", connection=conn, task="t"):
            pass
    assert prometheus_client.REGISTRY.get_sample_value("onebeat_worker_duplicates_total", labels) == before + 2
    assert prometheus_client.REGISTRY.get_sample_value("onebeat_worker_processed_total", labels) >= 1


def test_the_block_runs_in_the_connections_transaction_and_commits_it(conn, worker_db):
    key = unique("commit")
    with onebeat.process_once(key, consumer="shop", connection=conn) as first:
        assert first
        with conn.cursor() as cursor:
            cursor.execute("INSERT INTO test_applied (key, worker) VALUES (%s, 'in-block')", (key,))
        other = worker_db.connect()
        try:  # not visible before the commit
            assert applied_rows(other, key) == 0
        finally:
            other.close()
    other = worker_db.connect()
    try:
        assert applied_rows(other, key) == 1 and journal_rows(other, "shop", key) == 1
    finally:
        other.close()


def test_an_autocommit_connection_gets_a_transaction_for_the_block_and_its_mode_back(conn):
    conn.autocommit = True
    key = unique("autocommit")
    with pytest.raises(RuntimeError):
        with onebeat.process_once(key, consumer="shop", connection=conn):
            with conn.cursor() as cursor:
                cursor.execute("INSERT INTO test_applied (key, worker) VALUES (%s, 'x')", (key,))
            raise RuntimeError("fail")
    assert conn.autocommit is True
    assert count(conn, "SELECT count(*) FROM test_applied WHERE key = %s", key) == 0


def test_a_lost_database_connection_raises_the_drivers_error_and_records_nothing(conn, worker_db):
    key = unique("db-down")
    victim = worker_db.connect()
    pid = victim.get_backend_pid()
    conn.autocommit = True
    count(conn, "SELECT count(*) FROM (SELECT pg_terminate_backend(%s)) t", pid)
    conn.autocommit = False
    ran = []
    with pytest.raises(psycopg2.OperationalError):
        with onebeat.process_once(key, consumer="shop", connection=victim):
            ran.append(True)
    assert ran == []
    assert journal_rows(conn, "shop", key) == 0
    victim.close()
    retry = worker_db.connect()
    try:
        with onebeat.process_once(key, consumer="shop", connection=retry) as first:
            assert first
    finally:
        retry.close()


@pytest.mark.parametrize("bad, field", [
    (dict(idempotency_key=None), "idempotency_key"),
    (dict(idempotency_key="   "), "idempotency_key"),
    (dict(idempotency_key="k" * 321), "idempotency_key"),
    (dict(idempotency_key="a\x00b"), "idempotency_key"),
    (dict(idempotency_key="order-\ud83d"), "idempotency_key must not contain an unpaired surrogate"),
    (dict(consumer="\ude00shop"), "consumer must not contain an unpaired surrogate"),
    (dict(idempotency_key="\U0001F600" * 321),
     r"idempotency_key must be at most 320 characters \(Unicode code points, as PostgreSQL counts VARCHAR\), was 321"),
    (dict(consumer="\u3000\u2028"), "consumer must not be blank"),
    (dict(consumer=""), "consumer"),
    (dict(consumer="c" * 201), "consumer"),
    (dict(task=" "), "task"),
    (dict(using="default"), "not both"),
])
def test_invalid_inputs_are_refused_naming_the_field_before_any_statement(bad, field):
    arguments = dict(idempotency_key="k", consumer="shop", connection=object())
    arguments.update(bad)
    key = arguments.pop("idempotency_key")
    with pytest.raises(ValueError, match=field):
        onebeat.process_once(key, **arguments)


def test_the_longest_key_and_consumer_fit_the_columns(conn):
    with onebeat.process_once("k" * 320, consumer="c" * 200, connection=conn) as first:
        assert first


EMOJI = "\U0001F600"  # one code point, two UTF-16 units


def test_limits_count_code_points_as_the_columns_and_the_java_kit_do(conn):
    key = EMOJI * 320
    consumer = f"emoji-{uuid.uuid4().hex}".ljust(199, "c") + EMOJI
    with onebeat.process_once(key, consumer=consumer, connection=conn) as first:
        assert first
    with onebeat.process_once(key, consumer=consumer, connection=conn) as again:
        assert not again
    assert count(conn, "SELECT count(*) FROM onebeat_processed WHERE consumer = %s AND idempotency_key = %s",
                 consumer, key) == 1
    conn.rollback()
    with pytest.raises(ValueError, match=r"^consumer must be at most 200 characters \(Unicode code points"):
        onebeat.process_once(key, consumer=consumer + "c", connection=conn)
    with pytest.raises(ValueError, match=r"^idempotency_key must be at most 320 characters \(Unicode code points"):
        onebeat.process_once(key + EMOJI, consumer=consumer, connection=conn)


@pytest.mark.parametrize("space", ["\x85", "\xa0", "\u2007", "\u202f"])
def test_a_space_java_does_not_call_whitespace_makes_no_blank_key(conn, space):
    consumer = f"spaces-{uuid.uuid4().hex}"
    with onebeat.process_once(space * 3, consumer=consumer, connection=conn) as first:
        assert first
    assert count(conn, "SELECT count(*) FROM onebeat_processed WHERE consumer = %s AND idempotency_key = %s",
                 consumer, space * 3) == 1


def test_a_refused_key_is_shown_cut_after_forty_characters_never_inside_one():
    with pytest.raises(ValueError) as refused:
        onebeat.process_once("k" + EMOJI * 320, consumer="shop", connection=object())
    assert str(refused.value).endswith(": " + repr("k" + EMOJI * 39) + "...")


def test_step_keys_are_the_java_kits():
    assert onebeat.step_key("order-42", "charge") == "order-42#charge"
    with pytest.raises(ValueError, match="step"):
        onebeat.step_key("order-42", "a#b")


def test_the_decorator_with_a_connection_factory_shares_the_connection_and_skips_duplicates(worker_db, conn):
    from celery import Celery

    app = Celery("onebeat_decorator_test", set_as_current=False)
    app.conf.task_always_eager = True
    opened = []

    def connect():
        connection = worker_db.connect()
        opened.append(connection)
        return connection

    @app.task(bind=True, name="shop.confirm")
    @onebeat.once(consumer="decorated", connect=connect, skipped="duplicate")
    def confirm(self, order_id, connection):
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO test_applied (key, worker) VALUES (%s, %s)",
                           (onebeat.key(self), f"order-{order_id}"))
        return "confirmed"

    key = unique("decorated")
    headers = {"idempotency_key": key, "scheduled_at": "2026-11-29T08:00:00Z"}
    assert confirm.apply(args=(42,), headers=headers).get() == "confirmed"
    assert confirm.apply(args=(42,), headers=headers).get() == "duplicate"
    assert applied_rows(conn, key) == 1
    assert all(c.closed for c in opened) and len(opened) == 2
    assert metrics.value(metrics.DUPLICATES, consumer="decorated", task="shop.confirm") == 1

    with pytest.raises(onebeat.MissingKeyError):
        confirm.apply(args=(1,), throw=True).get()


def test_the_decorator_takes_a_key_function_and_may_run_without_a_key(worker_db, conn):
    calls = []

    @onebeat.once(consumer="plain", connect=worker_db.connect, connection_arg=None,
                  key=lambda order_id: f"plain/{order_id}" if order_id else None, missing_key="run")
    def handle(order_id):
        calls.append(order_id)
        return order_id

    suffix = uuid.uuid4().hex
    assert handle(suffix) == suffix
    assert handle(suffix) is None
    assert handle(None) is None and handle("") == ""
    assert calls == [suffix, None, ""]
    assert journal_rows(conn, "plain", f"plain/{suffix}") == 1


def test_django_rollback_retry_using_nesting_and_the_decorator(worker_db):
    prefix = unique("django")
    seen = consumer_workers.run(consumer_workers.django_scenarios, worker_db.django_settings(), prefix)

    assert seen["rollback_first"] is True and seen["rollback_error"] == "handler failed"
    assert seen["rollback_journal"] == 0 and seen["rollback_rows"] == 0
    assert seen["retry_first"] is True and seen["retry_rows"] == ["attempt-2"]
    assert seen["again_first"] is False
    assert seen["duplicates"] >= 1 and seen["processed"] >= 1
    assert seen["using_in_atomic"] is True and seen["default_in_atomic"] is False
    assert seen["using_journal"] == 1
    assert seen["nested_first"] is True and seen["nested_journal"] == 0
    assert seen["nested_processed_delta"] == 0
    assert seen["decorated_first"] == "credited" and seen["decorated_second"] == "skipped"
    assert seen["decorated_rows"] == 1 and seen["decorated_task_label"] == 1
    assert "no onebeat idempotency key" in seen["missing_key"]
    assert seen["throttle_first"] is True and seen["throttle_second"] is False
    assert seen["effect_recorded"] is True
    assert seen["effect_row"] == ["http", '{"key":"%s/effect"}' % prefix, "pending"]
    assert seen["effect_rolled_back"] == 0
