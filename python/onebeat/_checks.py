"""Input checks shared by the modules, mirroring the worker kit's column limits.

Every check raises :class:`ValueError` naming the field, before any statement runs, so a bad value
never reaches PostgreSQL as a truncation or encoding error in the middle of a transaction.

The rule is the Java kit's ``ColumnText``, so that what one side accepts the other accepts too:
blank means only characters Java's ``Character.isWhitespace`` calls whitespace (so a no-break
space is not blank, although ``str.isspace`` says it is); limits count characters as PostgreSQL's
``VARCHAR(n)`` does in a UTF8 database, Unicode code points (``len``: an emoji counts one, where
Java's ``String.length`` counts two); NUL and lone surrogates, which UTF-8 cannot carry, are refused.
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

#: What Java's ``Character.isWhitespace`` accepts, all of it: ``str.isspace`` also takes U+0085,
#: U+00A0, U+2007 and U+202F, which Java does not.
JAVA_WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                   "\u2008\u2009\u200a\u2028\u2029\u205f\u3000")

#: How many characters of a refused value a message shows.
_SHOWN = 40


def _shown(value: str) -> str:
    return repr(value) if len(value) <= _SHOWN else repr(value[:_SHOWN]) + "..."


def text(field: str, value: Any, max_length: int = 0) -> str:
    """Returns ``value`` if it is a non-blank ``str`` of at most ``max_length`` characters (0: no limit).

    Characters are Unicode code points, as PostgreSQL's ``VARCHAR`` counts them.

    :raises ValueError: naming ``field`` if the value is None, not a string, blank, too long (naming
        the limit and the unit) or holds a NUL character or a lone surrogate (PostgreSQL text cannot
        store either)
    """
    if value is None:
        raise ValueError(f"{field} must not be None")
    if not isinstance(value, str):
        raise ValueError(f"{field} must be a str, was {type(value).__name__}: {value!r}")
    if not value.strip(JAVA_WHITESPACE):
        raise ValueError(f"{field} must not be blank, was {value!r}")
    if max_length and len(value) > max_length:
        raise ValueError(f"{field} must be at most {max_length} characters (Unicode code points, as PostgreSQL "
                         f"counts VARCHAR), was {len(value)}: {_shown(value)}")
    if "\x00" in value:
        raise ValueError(f"{field} must not contain a NUL character, was {_shown(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"{field} must not contain an unpaired surrogate (U+{ord(value[e.start]):04X}), which "
                         f"UTF-8 cannot encode, was {_shown(value)}") from None
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
