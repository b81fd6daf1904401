"""throttle() and record_effect() on the worker kit's tables, checked against the Java kit's own statements."""
import datetime
import threading
import time
import uuid

import pytest

import onebeat
from onebeat import metrics

# EffectStore.CLAIM_DUE, the Java EffectSender's claim of due pending effects (worker-kit, effect/EffectStore.java)
CLAIM_DUE = """
UPDATE onebeat_effect
   SET status = 'sending', locked_by = %s, locked_until = now() + %s * interval '1 millisecond',
       attempts = attempts + 1
 WHERE id IN (SELECT id FROM onebeat_effect
               WHERE status = 'pending' AND available_at <= now() AND channel = ANY (%s)
               ORDER BY available_at
               LIMIT %s
               FOR UPDATE SKIP LOCKED)
RETURNING id, idempotency_key, channel, destination, payload, attempts
"""


def subject() -> str:
    return "user-" + uuid.uuid4().hex[:12]


def test_one_acquisition_per_window_then_the_next_window(conn):
    who = subject()
    assert onebeat.throttle("points-push", who, datetime.timedelta(milliseconds=400), connection=conn)
    conn.commit()
    assert not onebeat.throttle("points-push", who, datetime.timedelta(milliseconds=400), connection=conn)
    conn.commit()
    # other subjects and other kinds have windows of their own
    assert onebeat.throttle("points-push", subject(), 0.4, connection=conn)
    assert onebeat.throttle("digest", who, 0.4, connection=conn)
    conn.commit()
    time.sleep(0.5)
    assert onebeat.throttle("points-push", who, 0.4, connection=conn)
    conn.commit()


def test_a_refusal_is_counted_by_kind(conn):
    who = subject()
    before = metrics.value(metrics.THROTTLED, kind="counted")
    onebeat.throttle("counted", who, 60, connection=conn)
    onebeat.throttle("counted", who, 60, connection=conn)
    onebeat.throttle("counted", who, 60, connection=conn)
    conn.commit()
    assert metrics.value(metrics.THROTTLED, kind="counted") == before + 2


def test_an_acquisition_rolled_back_is_released(conn):
    who = subject()
    assert onebeat.throttle("push", who, 60, connection=conn)
    conn.rollback()
    assert onebeat.throttle("push", who, 60, connection=conn)
    conn.commit()


def test_the_window_is_the_rows_until_measured_with_the_databases_clock(conn):
    who = subject()
    onebeat.throttle("push", who, datetime.timedelta(minutes=10), connection=conn)
    with conn.cursor() as cursor:
        cursor.execute("SELECT until - now() FROM onebeat_throttle WHERE kind = 'push' AND subject = %s", (who,))
        assert cursor.fetchone()[0] == datetime.timedelta(minutes=10)
    conn.commit()


def test_concurrent_callers_let_exactly_one_through(worker_db):
    who = subject()
    results = []
    barrier = threading.Barrier(8)

    def call():
        connection = worker_db.connect()
        try:
            barrier.wait(timeout=30)
            results.append(onebeat.throttle("race", who, 60, connection=connection))
            connection.commit()
        finally:
            connection.close()

    threads = [threading.Thread(target=call) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(results) == [False] * 7 + [True]


@pytest.mark.parametrize("kind, who, window, field", [
    ("", "u", 1, "kind"), ("k" * 101, "u", 1, "kind"), ("k", " ", 1, "subject"),
    ("k", "s" * 201, 1, "subject"), ("k", "u", 0, "window"),
    ("k", "u", datetime.timedelta(microseconds=999), "window"), ("k", "u", "10", "window"),
])
def test_throttle_inputs_are_checked(kind, who, window, field):
    with pytest.raises(ValueError, match=field):
        onebeat.throttle(kind, who, window, connection=object())


def test_a_recorded_effect_is_what_the_java_sender_claims(conn):
    key = f"orders/2026-11-29T08:00:00Z/confirm/order:{uuid.uuid4().hex}/email"
    with onebeat.process_once(key.rsplit("/", 1)[0], consumer="shop", connection=conn) as first:
        assert first
        assert onebeat.record_effect(key, destination="https://mail.internal/send",
                                     payload={"template": "order-confirmation", "order": 42}, connection=conn)

    with conn.cursor() as cursor:
        cursor.execute("SELECT channel, destination, payload, status, attempts, available_at <= now(), locked_by,"
                       " sent_at, last_error FROM onebeat_effect WHERE idempotency_key = %s", (key,))
        assert cursor.fetchone() == ("http", "https://mail.internal/send",
                                     '{"template":"order-confirmation","order":42}', "pending", 0, True,
                                     None, None, None)
        cursor.execute(CLAIM_DUE, ("python-test-sender", 30000, ["http"], 1000))
        claimed = [row for row in cursor.fetchall() if row[1] == key]
    conn.commit()
    assert len(claimed) == 1
    _, claimed_key, channel, destination, payload, attempts = claimed[0]
    assert (claimed_key, channel, destination, attempts) == (key, "http", "https://mail.internal/send", 1)
    assert payload == '{"template":"order-confirmation","order":42}'


def test_a_redelivered_handler_records_nothing_new_and_a_rollback_records_nothing(conn):
    key = f"effect-{uuid.uuid4().hex}"
    assert onebeat.record_effect(key, channel="email", destination="ops@example.com", payload="first",
                                 connection=conn)
    conn.commit()
    assert not onebeat.record_effect(key, channel="email", destination="other", payload="second", connection=conn)
    conn.commit()
    other = f"effect-{uuid.uuid4().hex}"
    assert onebeat.record_effect(other, destination="https://x.invalid/", payload=b"raw", connection=conn)
    conn.rollback()
    with conn.cursor() as cursor:
        cursor.execute("SELECT destination, payload FROM onebeat_effect WHERE idempotency_key = ANY(%s)",
                       ([key, other],))
        assert cursor.fetchall() == [("ops@example.com", "first")]
    conn.commit()


@pytest.mark.parametrize("changes, field", [
    (dict(idempotency_key=""), "idempotency_key"), (dict(idempotency_key="k" * 321), "idempotency_key"),
    (dict(channel=" "), "channel"), (dict(channel="c" * 101), "channel"),
    (dict(destination=""), "destination"), (dict(destination=None), "destination"),
    (dict(payload=None), "payload"), (dict(payload="a\x00"), "payload"), (dict(payload={1, 2}), "payload"),
    (dict(payload=float("nan")), "payload"),
])
def test_effect_inputs_are_checked_like_the_java_effect(changes, field):
    arguments = dict(idempotency_key="k", channel="http", destination="https://x", payload="{}",
                     connection=object())
    arguments.update(changes)
    key = arguments.pop("idempotency_key")
    with pytest.raises(ValueError, match=field):
        onebeat.record_effect(key, **arguments)


def test_effect_and_throttle_limits_count_code_points_as_the_columns_and_the_java_kit_do(conn):
    emoji = "\U0001F600"  # one code point, two UTF-16 units
    key = uuid.uuid4().hex + emoji * 288
    assert onebeat.record_effect(key, channel=emoji * 100, destination="https://x", payload="", connection=conn)
    kind = uuid.uuid4().hex + emoji * 68
    assert onebeat.throttle(kind, emoji * 200, 60, connection=conn)
    conn.commit()
    with conn.cursor() as cursor:
        cursor.execute("SELECT channel FROM onebeat_effect WHERE idempotency_key = %s", (key,))
        assert cursor.fetchone() == (emoji * 100,)
    conn.commit()
    with pytest.raises(ValueError, match=r"^channel must be at most 100 characters \(Unicode code points"):
        onebeat.record_effect(key, channel=emoji * 101, destination="https://x", payload="", connection=conn)
    with pytest.raises(ValueError, match=r"^subject must be at most 200 characters \(Unicode code points"):
        onebeat.throttle(kind, emoji * 201, 60, connection=conn)
    with pytest.raises(ValueError, match=r"^idempotency_key must not contain an unpaired surrogate \(U\+D83D\)"):
        onebeat.record_effect("order-\ud83d", destination="https://x", payload="", connection=conn)


def test_an_empty_payload_is_allowed_as_in_java(conn):
    assert onebeat.record_effect(f"empty-{uuid.uuid4().hex}", destination="https://x", payload="", connection=conn)
    conn.rollback()
