"""trace_context(), trace_id() and consumer_span() on messages carrying what onebeat's transports write."""
import sys
import types

import pytest

import onebeat

PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"


def test_celery_worker_request_carries_the_headers_as_attributes():
    from celery.app.task import Context

    request = Context({"id": "x", "idempotency_key": "j/2026-11-29T08:00:00Z/t", "traceparent": PARENT,
                       "tracestate": "vendor=1"})

    assert onebeat.trace_context(request) == {"traceparent": PARENT, "tracestate": "vendor=1"}
    assert onebeat.trace_id(request) == TRACE


def test_rq_meta_dramatiq_options_headers_and_an_in_database_payload():
    job = types.SimpleNamespace(meta={"idempotency_key": "k", "traceparent": PARENT})
    dramatiq = {"actor_name": "a", "message_id": "m", "options": {"traceparent": PARENT}}
    kafka_headers = {"Traceparent": PARENT.encode("utf-8")}
    payload = {"args": [], "kwargs": {}, "trace": {"traceparent": PARENT}}

    kafka_list = [("idempotency-key", b"k"), ("traceparent", PARENT.encode("utf-8"))]

    for source in (job, dramatiq, kafka_headers, payload, kafka_list):
        assert onebeat.trace_context(source) == {"traceparent": PARENT}, source


@pytest.mark.parametrize("value", [None, "", "00-abc", PARENT.upper(), 7, PARENT + "\n", "ff" + PARENT[2:],
                                   "00-" + "0" * 32 + PARENT[35:], PARENT[:36] + "0" * 16 + PARENT[52:]])
def test_no_context_or_a_malformed_one_gives_none(value):
    assert onebeat.trace_context({"traceparent": value}) is None
    assert onebeat.trace_id({"traceparent": value}) is None


def test_outside_any_task_there_is_no_context():
    assert onebeat.trace_context() is None


def test_consumer_span_does_nothing_without_opentelemetry(monkeypatch):
    monkeypatch.setitem(sys.modules, "opentelemetry", None)  # import fails as if not installed

    with onebeat.consumer_span("send", {"traceparent": PARENT}) as span:
        assert span is None


def test_consumer_span_starts_a_consumer_span_child_of_the_sent_context(monkeypatch):
    started = []

    class Propagator:
        def extract(self, carrier):
            return ("extracted", carrier["traceparent"])

    class Manager:
        def __init__(self, name, context, kind):
            started.append((name, context, kind))

        def __enter__(self):
            return "span"

        def __exit__(self, *exc):
            started.append("ended")
            return None

    trace = types.ModuleType("opentelemetry.trace")
    trace.SpanKind = types.SimpleNamespace(CONSUMER="consumer")
    trace.get_tracer = lambda name: types.SimpleNamespace(
        start_as_current_span=lambda name, context, kind: Manager(name, context, kind))
    package = types.ModuleType("opentelemetry")
    package.trace = trace
    tracecontext = types.ModuleType("opentelemetry.trace.propagation.tracecontext")
    tracecontext.TraceContextTextMapPropagator = Propagator
    monkeypatch.setitem(sys.modules, "opentelemetry", package)
    monkeypatch.setitem(sys.modules, "opentelemetry.trace", trace)
    monkeypatch.setitem(sys.modules, "opentelemetry.trace.propagation", types.ModuleType("p"))
    monkeypatch.setitem(sys.modules, "opentelemetry.trace.propagation.tracecontext", tracecontext)

    with onebeat.consumer_span("send", {"traceparent": PARENT}) as span:
        assert span == "span"

    assert started == [("send", ("extracted", PARENT), "consumer"), "ended"]
