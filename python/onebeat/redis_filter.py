"""A cheap duplicate check in front of the journal, the Python twin of the Java kit's ``RedisDuplicateFilter``.

The filter is only a hint: the journal in PostgreSQL stays the authority. A filter that is unsure,
empty or unreachable answers "not seen" and the database decides, so a Redis outage costs a
transaction per delivery and never loses or repeats work.

Key format (shared with Java, so both can use one Redis): ``<prefix>:<consumer>:<key>`` with ``%``
written ``%25`` and ``:`` written ``%3A`` inside the consumer and the key (:func:`redis_key`), value
``"1"``, written with ``SET NX EX <ttl>`` only AFTER the journal entry committed. Marking earlier
would make the redelivery of a rolled-back or crashed attempt look processed, and the work would be
lost.
"""
import datetime
import logging
import threading
import time
from typing import Any, Callable, Optional, Union

try:  # Protocol is in typing from 3.8
    from typing import Protocol
except ImportError:  # pragma: no cover
    Protocol = object  # type: ignore

log = logging.getLogger("onebeat")

#: How long Redis is left alone after a failure unless told otherwise, in seconds (Java: 5 s).
DEFAULT_PAUSE = 5.0


def redis_key(prefix: str, consumer: str, key: str) -> str:
    """The Redis key of a processed (consumer, key): ``<prefix>:<consumer>:<key>``, the Java filter's.

    Inside the consumer and the key, ``%`` is written ``%25`` and ``:`` is written ``%3A``, so neither
    holds a ``:`` and the last two ``:``-separated fields are always the consumer and the key: two
    different (prefix, consumer, key) never share a Redis key (``shop:eu`` + ``orders`` is
    ``shop%3Aeu:orders``, ``shop`` + ``eu:orders`` is ``shop:eu%3Aorders``). A mark for one consumer's key
    can therefore never make another's look processed. Other characters are kept, so keys stay readable.
    """
    return f"{prefix}:{_escape(consumer)}:{_escape(key)}"


def _escape(part: str) -> str:
    return part.replace("%", "%25").replace(":", "%3A")


class DuplicateFilter(Protocol):
    """What :func:`onebeat.process_once` asks before the journal and tells after the commit.

    Implementations must not raise: on any doubt ``seen`` answers False.
    """

    def seen(self, consumer: str, key: str) -> bool:
        """True only if the key is known to be committed as processed by the consumer."""
        ...

    def mark_processed(self, consumer: str, key: str) -> None:
        """Remembers a key whose journal entry is committed; called only after the commit."""
        ...


class _NoFilter:
    """Consults nothing: every delivery goes to the journal."""

    def seen(self, consumer: str, key: str) -> bool:
        return False

    def mark_processed(self, consumer: str, key: str) -> None:
        return None

    def __repr__(self) -> str:
        return "NO_FILTER"


#: The filter used when none is given.
NO_FILTER: DuplicateFilter = _NoFilter()


class RedisDuplicateFilter:
    """A :class:`DuplicateFilter` on Redis (``redis-py``), same keys and behaviour as the Java one.

    * ``seen``: ``EXISTS <prefix>:<consumer>:<key>``;
    * ``mark_processed``: ``SET <prefix>:<consumer>:<key> 1 NX EX <ttl>``; keys older than the TTL
      simply fall through to the journal.

    ``%`` and ``:`` in the consumer and the key are written ``%25`` and ``%3A`` (:func:`redis_key`).

    Any Redis failure (down, timeout, refused connection, wrong credentials...) makes ``seen``
    answer False and ``mark_processed`` do nothing, so processing goes on through the database.
    After a failure Redis is left alone for ``pause`` seconds, so a hanging Redis does not add a
    timeout to every delivery; the first call after the pause tries again. The failure is logged at
    WARNING once per outage (logger ``onebeat``), and at INFO when Redis answers again.

    Give the client short timeouts (``socket_timeout``, ``socket_connect_timeout``): every delivery
    waits on it before the database. Thread-safe if the client is (redis-py's is).
    """

    def __init__(self, client: Any, prefix: str = "onebeat:processed",
                 ttl: Union[int, float, datetime.timedelta] = datetime.timedelta(days=1),
                 pause: Union[int, float, datetime.timedelta] = DEFAULT_PAUSE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """
        :param client: a ``redis.Redis`` (or anything with ``exists`` and ``set(name, value, nx=, ex=)``)
        :param prefix: start of every key, for example ``onebeat:processed``
        :param ttl: how long a processed key is remembered; whole seconds, at least one
        :param pause: seconds Redis is left alone after a failure; 0 tries it on every call
        :raises ValueError: if the client is None, the prefix blank, the TTL under a second or the pause negative
        """
        if client is None:
            raise ValueError("client must not be None")
        if not isinstance(prefix, str) or not prefix.strip():
            raise ValueError(f"prefix must not be blank, was {prefix!r}")
        ttl_seconds = int(_seconds(ttl, "ttl"))
        if ttl_seconds < 1:
            raise ValueError(f"ttl must be at least one second, was {ttl!r}")
        pause_seconds = _seconds(pause, "pause")
        if pause_seconds < 0:
            raise ValueError(f"pause must not be negative, was {pause!r}")
        self.client = client
        self.prefix = prefix
        self.ttl_seconds = ttl_seconds
        self.pause_seconds = pause_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._retry_at = float("-inf")
        self._unavailable = False

    @classmethod
    def from_url(cls, url: str, prefix: str = "onebeat:processed",
                 ttl: Union[int, float, datetime.timedelta] = datetime.timedelta(days=1),
                 timeout: float = 0.25, pause: Union[int, float, datetime.timedelta] = DEFAULT_PAUSE
                 ) -> "RedisDuplicateFilter":
        """A filter on a new ``redis.Redis.from_url(url)`` with ``timeout`` seconds to connect and per command.

        Creating it does not connect; an unreachable Redis shows only as a fall-through later.

        :raises ImportError: if redis-py is not installed (``pip install onebeat[redis]``)
        """
        import redis

        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        return cls(client, prefix, ttl, pause)

    def redis_key(self, consumer: str, key: str) -> str:
        """``<prefix>:<consumer>:<key>`` with ``%`` and ``:`` escaped in consumer and key, as the Java filter writes it."""
        return redis_key(self.prefix, consumer, key)

    def seen(self, consumer: str, key: str) -> bool:
        """True if Redis holds the key; False if not, or if Redis failed or is paused after a failure."""
        if self._paused():
            return False
        try:
            seen = bool(self.client.exists(self.redis_key(consumer, key)))
        except Exception as e:  # any failure of the hint leaves the decision to the journal
            self._failed(e)
            return False
        self._available()
        return seen

    def mark_processed(self, consumer: str, key: str) -> None:
        """Sets the key with its TTL unless it exists; a Redis failure is logged and ignored."""
        if self._paused():
            return
        try:
            self.client.set(self.redis_key(consumer, key), "1", nx=True, ex=self.ttl_seconds)
        except Exception as e:
            self._failed(e)
            return
        self._available()

    def _paused(self) -> bool:
        return self._clock() < self._retry_at

    def _available(self) -> None:
        with self._lock:
            was_unavailable, self._unavailable = self._unavailable, False
        if was_unavailable:
            log.info("Redis duplicate filter available again prefix=%s", self.prefix)

    def _failed(self, error: BaseException) -> None:
        with self._lock:
            self._retry_at = self._clock() + self.pause_seconds
            first, self._unavailable = not self._unavailable, True
        if first:
            log.warning("Redis duplicate filter unavailable, every delivery goes to the database journal "
                        "until it answers again prefix=%s retryEvery=%ss error=%r",
                        self.prefix, self.pause_seconds, error)

    def __repr__(self) -> str:
        return f"RedisDuplicateFilter(prefix={self.prefix!r}, ttl={self.ttl_seconds}s)"


def _seconds(value: Union[int, float, datetime.timedelta], field: str) -> float:
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{field} must be seconds or a timedelta, was {value!r}")
    return float(value)
