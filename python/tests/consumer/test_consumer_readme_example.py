"""The worked Celery example of the Python consumers page (docs/python.md), run as written there: only its broker and database are swapped
for an in-memory broker (tasks run eagerly, with the headers onebeat's Celery transport sets) and the
test's database."""
import re
from typing import Any, Dict

import pytest

from pgtest import REPO_ROOT, Database

PAGE = REPO_ROOT / "docs" / "python.md"


def readme_example() -> str:
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index("## A worked example in Celery"):]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the Celery example of docs/python.md"
    return match.group(1)


@pytest.fixture
def example(worker_db: Database) -> Dict[str, Any]:
    code = readme_example()
    assert 'broker="amqp://guest:guest@localhost//"' in code and 'psycopg2.connect("dbname=shop")' in code
    code = code.replace('broker="amqp://guest:guest@localhost//"', 'broker="memory://", set_as_current=False')
    code = code.replace('psycopg2.connect("dbname=shop")', "psycopg2.connect(DSN)")
    namespace: Dict[str, Any] = {"DSN": worker_db.dsn}
    exec(compile(code, str(PAGE), "exec"), namespace)
    namespace["app"].conf.task_always_eager = True
    with worker_db.connect() as connection, connection.cursor() as cursor:
        cursor.execute("CREATE TABLE account (id BIGINT PRIMARY KEY, points BIGINT NOT NULL)")
        cursor.execute("INSERT INTO account VALUES (7, 0)")
    return namespace


def test_the_readme_example_credits_once_and_records_each_effect_once(example: Dict[str, Any],
                                                                       worker_db: Database) -> None:
    confirm, credit = example["send_confirmation"], example["credit_bonus"]
    order = {"idempotency_key": "orders-nightly/2026-12-02T02:00:00Z/orders.send_confirmation/order:42",
             "scheduled_at": "2026-12-02T02:00:00Z"}
    bonus = {"idempotency_key": "bonus-nightly/2026-12-02T02:00:00Z/loyalty.credit_bonus/account:7",
             "scheduled_at": "2026-12-02T02:00:00Z"}

    for _ in range(2):  # a redelivery of each
        confirm.apply(args=(42,), headers=order).get()
        credit.apply(args=(7,), headers=bonus).get()

    with worker_db.connect() as connection, connection.cursor() as cursor:
        cursor.execute("SELECT points FROM account WHERE id = 7")
        assert cursor.fetchone()[0] == 500
        cursor.execute("SELECT idempotency_key, destination FROM onebeat_effect ORDER BY idempotency_key")
        assert cursor.fetchall() == [
            (bonus["idempotency_key"] + "/push", "https://push.internal/notify"),
            (order["idempotency_key"] + "/email", "https://mail.internal/send")]
        cursor.execute("SELECT consumer, idempotency_key FROM onebeat_processed ORDER BY consumer")
        assert cursor.fetchall() == [("loyalty", bonus["idempotency_key"]), ("shop", order["idempotency_key"])]
