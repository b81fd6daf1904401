"""Input checks shared by the modules, mirroring the worker kit's column limits.

Every check raises :class:`ValueError` naming the field, before any statement runs, so a bad value
never reaches PostgreSQL as a truncation or encoding error in the middle of a transaction.
"""
from typing import Any

#: ``onebeat_processed.consumer``
MAX_CONSUMER = 200
#: ``onebeat_processed.idempotency_key`` and ``onebeat_effect.idempotency_key``
MAX_KEY = 320
#: ``onebeat_effect.channel``
MAX_CHANNEL = 100
#: ``onebeat_throttle.kind``
MAX_KIND = 100
#: ``onebeat_throttle.subject``
MAX_SUBJECT = 200


def text(field: str, value: Any, max_length: int = 0) -> str:
    """Returns ``value`` if it is a non-blank ``str`` of at most ``max_length`` characters (0: no limit).

    :raises ValueError: naming ``field`` if the value is None, not a string, blank, too long or
        holds a NUL character (PostgreSQL text cannot store one)
    """
    if value is None:
        raise ValueError(f"{field} must not be None")
    if not isinstance(value, str):
        raise ValueError(f"{field} must be a str, was {type(value).__name__}: {value!r}")
    if not value.strip():
        raise ValueError(f"{field} must not be blank, was {value!r}")
    if max_length and len(value) > max_length:
        raise ValueError(
            f"{field} must be at most {max_length} characters, was {len(value)}: {value[:40]!r}...")
    if "\x00" in value:
        raise ValueError(f"{field} must not contain a NUL character, was {value[:40]!r}")
    return value


def optional_text(field: str, value: Any, max_length: int = 0) -> Any:
    """Like :func:`text`, but None passes through unchanged."""
    return None if value is None else text(field, value, max_length)


def consumer(value: Any) -> str:
    """A consumer name: 1 to 200 characters, not blank."""
    return text("consumer", value, MAX_CONSUMER)


def key(value: Any, field: str = "idempotency_key") -> str:
    """An idempotency key: 1 to 320 characters, not blank."""
    return text(field, value, MAX_KEY)
