"""Code the consumer tests run in child processes (started with ``spawn``, so each has its own
interpreter, its own connections and, for Django, its own settings).

Each function returns something picklable; :func:`run` and :func:`run_many` hand back the results or
raise with the child's traceback.
"""
import multiprocessing
import time
import traceback
from typing import Any, Callable, Dict, List, Optional

import onebeat
from onebeat import metrics

TIMEOUT = 120


def _call(queue: Any, index: int, func: Callable[..., Any], args: tuple) -> None:
    try:
        queue.put((index, True, func(*args)))
    except BaseException:
        queue.put((index, False, traceback.format_exc()))


def run_many(calls: List[tuple], barrier_parties: int = 0) -> List[Any]:
    """Runs each ``(func, *args)`` in its own spawned process, concurrently; with ``barrier_parties``
    a shared ``multiprocessing.Barrier`` is passed as the first argument of every call."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    barrier = context.Barrier(barrier_parties) if barrier_parties else None
    processes = []
    for index, (func, *args) in enumerate(calls):
        arguments = (barrier, *args) if barrier is not None else tuple(args)
        process = context.Process(target=_call, args=(queue, index, func, arguments), daemon=True)
        process.start()
        processes.append(process)
    results: Dict[int, Any] = {}
    failures = []
    try:
        for _ in processes:
            index, ok, value = queue.get(timeout=TIMEOUT)
            if ok:
                results[index] = value
            else:
                failures.append(f"child {index} failed:\n{value}")
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    if failures:
        raise AssertionError("\n".join(failures))
    return [results[i] for i in range(len(processes))]


def run(func: Callable[..., Any], *args: Any) -> Any:
    """Runs ``func(*args)`` in one spawned process and returns its result."""
    return run_many([(func, *args)])[0]


# ---------------------------------------------------------------- psycopg2

def journal_psycopg2(barrier: Any, dsn: str, key: str, consumer: str, worker: str, hold: float) -> Dict[str, Any]:
    """One delivery of ``key``, released with the others by the barrier; the work holds its
    transaction open for ``hold`` seconds so the other inserts wait on the journal row."""
    import psycopg2

    connection = psycopg2.connect(dsn)
    try:
        barrier.wait(timeout=60)
        with onebeat.process_once(key, consumer=consumer, connection=connection, task="race") as first:
            if first:
                with connection.cursor() as cursor:
                    cursor.execute("INSERT INTO test_applied (key, worker) VALUES (%s, %s)", (key, worker))
                time.sleep(hold)
    finally:
        connection.close()
    return {
        "first": bool(first),
        "duplicates": metrics.value(metrics.DUPLICATES, consumer=consumer, task="race"),
        "processed": metrics.value(metrics.PROCESSED, consumer=consumer, task="race"),
    }


# ---------------------------------------------------------------- Django

def setup_django(database: Dict[str, Any], aliases: Optional[List[str]] = None) -> None:
    """Configures Django in this (child) process with ``database`` as ``default`` and as every alias given."""
    import django
    from django.conf import settings

    databases = {"default": dict(database)}
    for alias in aliases or []:
        databases[alias] = dict(database)
    settings.configure(DATABASES=databases, INSTALLED_APPS=[], USE_TZ=True, TIME_ZONE="UTC")
    django.setup()


def applied_model() -> Any:
    """An unmanaged ORM model on the handler's table ``test_applied``."""
    from django.db import models

    class Applied(models.Model):
        key = models.TextField(primary_key=True)
        worker = models.TextField()

        class Meta:
            app_label = "onebeat_tests"
            db_table = "test_applied"
            managed = False

    return Applied


def journal_django(barrier: Any, database: Dict[str, Any], key: str, consumer: str, worker: str,
                   hold: float) -> Dict[str, Any]:
    """The Django twin of :func:`journal_psycopg2`: ``transaction.atomic`` and an ORM write."""
    setup_django(database)
    Applied = applied_model()
    from django.db import connection

    connection.ensure_connection()
    barrier.wait(timeout=60)
    with onebeat.process_once(key, consumer=consumer, task="race") as first:
        if first:
            Applied.objects.create(key=key, worker=worker)
            time.sleep(hold)
    connection.close()
    return {
        "first": bool(first),
        "duplicates": metrics.value(metrics.DUPLICATES, consumer=consumer, task="race"),
        "processed": metrics.value(metrics.PROCESSED, consumer=consumer, task="race"),
    }


def django_scenarios(database: Dict[str, Any], prefix: str) -> Dict[str, Any]:
    """Rollback, retry, ``using``, nesting and the decorator under Django, in one child; returns what each saw."""
    setup_django(database, aliases=["worker"])
    Applied = applied_model()
    from django.db import connection, connections, transaction

    def journal(key: str, alias: str = "default") -> int:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT count(*) FROM onebeat_processed WHERE consumer = %s AND idempotency_key = %s",
                           ["django", key])
            return cursor.fetchone()[0]

    seen: Dict[str, Any] = {}

    # 1. an exception in the block rolls back journal and work; the retry processes
    key = prefix + "/rollback"
    try:
        with onebeat.process_once(key, consumer="django") as first:
            seen["rollback_first"] = bool(first)
            Applied.objects.create(key=key, worker="attempt-1")
            raise RuntimeError("handler failed")
    except RuntimeError as e:
        seen["rollback_error"] = str(e)
    seen["rollback_journal"] = journal(key)
    seen["rollback_rows"] = Applied.objects.filter(key=key).count()
    with onebeat.process_once(key, consumer="django") as first:
        seen["retry_first"] = bool(first)
        if first:
            Applied.objects.create(key=key, worker="attempt-2")
    seen["retry_rows"] = list(Applied.objects.filter(key=key).values_list("worker", flat=True))
    with onebeat.process_once(key, consumer="django") as first:
        seen["again_first"] = bool(first)
    seen["duplicates"] = metrics.value(metrics.DUPLICATES, consumer="django")
    seen["processed"] = metrics.value(metrics.PROCESSED, consumer="django")

    # 2. using= picks the alias the atomic and the insert run on
    key = prefix + "/using"
    with onebeat.process_once(key, consumer="django", using="worker") as first:
        seen["using_in_atomic"] = connections["worker"].in_atomic_block
        seen["default_in_atomic"] = connection.in_atomic_block
    seen["using_journal"] = journal(key, "worker")

    # 3. nested in an outer atomic that rolls back: nothing stays, nothing counted as processed
    key = prefix + "/nested"
    before = metrics.value(metrics.PROCESSED, consumer="django")
    try:
        with transaction.atomic():
            with onebeat.process_once(key, consumer="django") as first:
                seen["nested_first"] = bool(first)
            raise RuntimeError("outer failed")
    except RuntimeError:
        pass
    seen["nested_journal"] = journal(key)
    seen["nested_processed_delta"] = metrics.value(metrics.PROCESSED, consumer="django") - before

    # 4. throttle and record_effect on Django's connection, inside the block's atomic
    key = prefix + "/effect"
    with onebeat.process_once(key, consumer="django") as first:
        seen["throttle_first"] = onebeat.throttle("django-push", key, 60)
        seen["throttle_second"] = onebeat.throttle("django-push", key, 60)
        seen["effect_recorded"] = onebeat.record_effect(key + "/push", destination="https://push.invalid/",
                                                        payload={"key": key})
    with connection.cursor() as cursor:
        cursor.execute("SELECT channel, payload, status FROM onebeat_effect WHERE idempotency_key = %s",
                       [key + "/push"])
        seen["effect_row"] = list(cursor.fetchone())
    try:
        with onebeat.process_once(prefix + "/effect-rolled-back", consumer="django"):
            onebeat.record_effect(prefix + "/effect-rolled-back/push", destination="https://push.invalid/",
                                  payload="x")
            raise RuntimeError("rolled back")
    except RuntimeError:
        pass
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM onebeat_effect WHERE idempotency_key = %s",
                       [prefix + "/effect-rolled-back/push"])
        seen["effect_rolled_back"] = cursor.fetchone()[0]

    # 5. the decorator on a bound Celery task run eagerly with onebeat's headers
    from celery import Celery

    app = Celery("onebeat_django_test", set_as_current=False)
    app.conf.task_always_eager = True

    @app.task(bind=True, name="loyalty.credit_bonus")
    @onebeat.once(consumer="django", skipped="skipped")
    def credit_bonus(self: Any, amount: int) -> str:
        Applied.objects.create(key=onebeat.key(self), worker=f"bonus-{amount}")
        return "credited"

    key = prefix + "/decorated"
    headers = {"idempotency_key": key, "scheduled_at": "2026-11-29T08:00:00Z"}
    seen["decorated_first"] = credit_bonus.apply(args=(500,), headers=headers).get()
    seen["decorated_second"] = credit_bonus.apply(args=(500,), headers=headers).get()
    seen["decorated_rows"] = Applied.objects.filter(key=key).count()
    seen["decorated_task_label"] = metrics.value(metrics.DUPLICATES, consumer="django", task="loyalty.credit_bonus")
    try:
        credit_bonus.apply(args=(1,), throw=True).get()
    except onebeat.MissingKeyError as e:
        seen["missing_key"] = str(e)
    return seen
