"""Effects a transaction cannot roll back (e-mail, push, payment), recorded in the handler's transaction.

The Python twin of the Java kit's ``EffectOutbox``: a row in ``onebeat_effect`` (``idempotency_key``,
``channel``, ``destination``, ``payload``; the rest keeps its defaults: ``status 'pending'``,
``attempts 0``, ``available_at now()``) written on the same transaction as the work, so the effect
exists exactly when the work commits. The Java ``EffectSender`` claims it once committed and
hands it to the delivery registered for its channel; with ``HttpEffectDelivery`` (docs/worker-kit.md's
``http`` channel) that is a ``POST`` of ``payload`` (``Content-Type: application/json``) to the URL
in ``destination`` with ``Idempotency-Key: <idempotency_key>``; 2xx is sent, 5xx/429/timeouts are
retried, other statuses dead at once.
"""
import json
from typing import Any, Optional

from . import _checks, _db

# UNIQUE(idempotency_key) is the one-effect-per-key guard: a redelivered handler records nothing new
INSERT = ("INSERT INTO onebeat_effect (idempotency_key, channel, destination, payload) "
          "VALUES (%s, %s, %s, %s) ON CONFLICT (idempotency_key) DO NOTHING")


def record_effect(idempotency_key: str, *, destination: str, payload: Any, channel: str = "http",
                  connection: Any = None, using: Optional[str] = None) -> bool:
    """Inserts an effect on the handler's transaction, without committing.

    If the key was already recorded (a redelivery, a retried handler) the existing effect is kept
    unchanged, whatever its state, and nothing is inserted.

    :param idempotency_key: identifies the effect across retries and redeliveries, 1 to 320
        characters (Unicode code points); derive it from the task's key (``onebeat.key() + "/email"``), never from a
        random id, or a redelivered task records a second effect. It is also the delivery's
        ``Idempotency-Key`` header.
    :param destination: where the delivery sends it; for the ``http`` channel, the URL
    :param payload: what is sent, for HTTP the request body: a ``str`` as is, ``bytes`` as UTF-8,
        anything else as JSON (``json.dumps``; a value JSON cannot hold raises ValueError)
    :param channel: selects the Java delivery, 1 to 100 characters; an ``EffectChannel`` bean (or
        ``EffectSender.Builder.delivery``) must exist for it on the sender, or the effect waits
    :param connection: a psycopg2 / psycopg 3 connection in the handler's transaction (the one of
        :func:`onebeat.process_once`); the caller commits
    :param using: with no connection, the Django alias; call it inside ``atomic`` (or a
        ``process_once`` block), or it commits at once in autocommit mode
    :return: whether a new effect was inserted
    :raises ValueError: naming the field for a blank or too long key, channel or destination, a
        missing payload, or text with a NUL character
    :raises Exception: the driver's error if the insert failed; the transaction is then unusable
        and must be rolled back (``process_once`` does it when the error leaves its block)
    """
    _checks.key(idempotency_key)
    _checks.text("channel", channel, _checks.MAX_CHANNEL)
    _checks.text("destination", destination)
    body = payload_text(payload)
    params = (idempotency_key, channel, destination, body)
    if connection is not None:
        return _db.execute(connection, INSERT, params) == 1
    return _db.django_execute(using, INSERT, params) == 1


def payload_text(payload: Any) -> str:
    """The payload column's text: ``str`` unchanged, ``bytes`` decoded as UTF-8, anything else as JSON.

    :raises ValueError: if the payload is None, not valid UTF-8, not JSON-serialisable or holds a NUL
    """
    if payload is None:
        raise ValueError("payload must not be None")
    if isinstance(payload, bytes):
        try:
            payload = payload.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"payload must be UTF-8: {e}") from None
    elif not isinstance(payload, str):
        try:
            payload = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as e:
            raise ValueError(f"payload must be text or JSON-serialisable: {e}") from None
    if "\x00" in payload:
        raise ValueError("payload must not contain a NUL character")
    return payload
