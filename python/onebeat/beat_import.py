"""Convert a Celery ``beat_schedule`` (or django-celery-beat's database schedules) to onebeat jobs.

Usage::

    python3 -m onebeat.beat_import proj.celery:app > onebeat-jobs.yaml
    python3 -m onebeat.beat_import --django-settings proj.settings > onebeat-jobs.yaml

The YAML written holds ``onebeat: jobs: [...]`` and is loaded by onebeat unchanged
(``--spring.config.additional-location=file:onebeat-jobs.yaml``). Whatever cannot be carried over
exactly is listed on stderr and as a comment in the YAML, never dropped silently: a whole entry that
cannot be expressed is *refused* (left out of ``onebeat.jobs``), a part of an entry that onebeat has
no place for (an apply_async option such as ``countdown``) is *unsupported* (the job is written
without it). Exit status: 0, also with refusals; 1 when the app or database cannot be read; 2 with
``--strict`` when anything was refused or unsupported.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import importlib
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, List, Optional, Sequence

# ---------------------------------------------------------------------------------------------
# onebeat's rules, as scheduler-app and job-api apply them

JOB_NAME_MAX = 150  # JobNames.MAX_LENGTH, and VARCHAR(150) of every job_name column, in UTF-16 units (below)
MAX_INTERVAL_SECONDS = 2 ** 31 - 1  # Schedule.Interval: 1 s to Integer.MAX_VALUE s
RESERVED_QUEUE = "onebeat.alerts"  # OutboxTask.RESERVED_QUEUE
# DeliveryOptions.RESERVED_HEADERS: Celery's protocol 2 headers and onebeat's own
RESERVED_HEADERS = frozenset((
    "lang", "task", "id", "shadow", "eta", "expires", "group", "group_index", "retries", "timelimit",
    "root_id", "parent_id", "argsrepr", "kwargsrepr", "origin", "ignore_result", "replaced_task_nesting",
    "stamped_headers", "stamps", "idempotency_key", "scheduled_at"))
# ConfiguredArguments.NUMBER: text that onebeat reads as a JSON number
_JSON_NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?\Z")

EPOCH_NOTE = ("onebeat's intervals are aligned to the Unix epoch (every 30s fires at :00 and :30 of each "
              "minute, every 1d at 00:00 UTC), not counted from the last run as celery beat counts them")

DAY_NAMES = ("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")  # Celery and Unix cron: 0 = Sunday
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # February may have 29

# apply_async options the job's fields or options carry over
_CARRIED_OPTIONS = ("queue", "exchange", "routing_key", "priority", "expires", "headers")


class ImportFailure(Exception):
    """A real error: the app or the database cannot be read (exit status 1)."""


class Refusal(Exception):
    """An entry, or one part of it, that onebeat cannot express exactly."""


# ---------------------------------------------------------------------------------------------
# Values shown in messages: the same text on every run (no object addresses, no set order)

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_SIMPLE = (bool, int, float, str, bytes, _dt.date, _dt.time, _dt.timedelta, _dt.timezone)


def show(value: Any, depth: int = 0) -> str:
    """``repr(value)`` made deterministic, for the YAML and stderr, which must be the same on every run.

    An object without a ``__repr__`` of its own is shown as ``<module.Class name=value ...>`` with its
    public data attributes (sorted by name) instead of ``<... object at 0x7f...>``; any address that
    another ``repr`` embeds is removed; sets are shown sorted (their order changes with the process's
    hash seed). Containers are shown item by item with the same rules.
    """
    if depth > 4:
        return "..."
    if value is None or isinstance(value, _SIMPLE):
        return _ADDRESS.sub("", repr(value))
    if type(value) in (list, tuple):
        inner = ", ".join(show(v, depth + 1) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner}{',' if len(value) == 1 else ''})"
    if type(value) is dict:
        return "{" + ", ".join(f"{show(k, depth + 1)}: {show(v, depth + 1)}" for k, v in value.items()) + "}"
    if isinstance(value, (set, frozenset)):
        items = sorted(show(v, depth + 1) for v in value)
        return ("{" + ", ".join(items) + "}") if items else f"{type(value).__name__}()"
    cls = type(value)
    if cls.__repr__ is object.__repr__:
        attributes = _attributes(value, depth)
        return f"<{_class_name(cls)}{' ' + attributes if attributes else ''}>"
    try:
        text = repr(value)
    except Exception as e:  # a broken __repr__ must not stop the import
        return f"<{_class_name(cls)}, repr failed: {type(e).__name__}>"
    return _ADDRESS.sub("", text)


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _attributes(value: Any, depth: int) -> str:
    """``name=value`` of an object's public, non-callable instance attributes, sorted by name."""
    try:
        items = sorted(vars(value).items())
    except TypeError:  # no __dict__ (slots)
        names = sorted(n for c in type(value).__mro__ for n in getattr(c, "__slots__", ()) if isinstance(n, str))
        items = [(n, getattr(value, n)) for n in names if hasattr(value, n)]
    shown = [f"{name}={show(v, depth + 1)}" for name, v in items
             if not name.startswith("_") and not callable(v)]
    text = " ".join(shown[:8]) + (" ..." if len(shown) > 8 else "")
    return text if len(text) <= 300 else text[:297] + "..."


# ---------------------------------------------------------------------------------------------
# The model: what one beat entry became


@dataclass
class Converted:
    source_name: str
    name: Optional[str] = None
    fields: list = field(default_factory=list)  # (yaml key, yaml value text or nested lines)
    refused: Optional[str] = None
    skipped: Optional[str] = None  # disabled rows of django-celery-beat
    unsupported: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)


@dataclass
class Entry:
    """A beat entry whichever way it was read: the app's beat_schedule or a PeriodicTask row."""
    name: Any
    task: Any
    schedule: Any
    args: Any = ()
    kwargs: Any = None
    options: dict = field(default_factory=dict)
    relative: bool = False
    unknown_keys: Sequence[str] = ()
    zone: Optional[str] = None  # a crontab's own zone, when the row says it
    active_from: Optional[str] = None  # a django-celery-beat row's start_time still to come, ISO-8601 UTC
    active_until: Optional[str] = None  # a django-celery-beat row's expires, ISO-8601 UTC
    refusal: Optional[str] = None  # decided while reading (a solar or clocked row)
    skipped: Optional[str] = None
    unsupported: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# YAML text, written by hand so that the output is stable and quoted as Spring Boot reads it

_PLAIN = re.compile(r"[A-Za-z_/]([A-Za-z0-9_./:@-]*[A-Za-z0-9_./@-])?\Z")
# words YAML 1.1 (SnakeYAML, which Spring Boot uses) reads as booleans or null
_YAML_WORDS = frozenset(("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"))


def _yaml_printable(ch: str) -> bool:
    o = ord(ch)
    return (o in (0x09, 0x0A, 0x0D) or 0x20 <= o <= 0x7E or o == 0x85 or 0xA0 <= o <= 0xD7FF
            or 0xE000 <= o <= 0xFFFD or 0x10000 <= o <= 0x10FFFF)


def _placeholder_safe(text: str) -> str:
    """Spring resolves ``${...}`` in every property value; a backslash before it keeps it literal."""
    return text.replace("${", "\\${")


def yaml_str(text: str) -> str:
    """A YAML scalar whose value is ``text`` exactly (after Spring's placeholder handling)."""
    text = _placeholder_safe(text)
    if _PLAIN.match(text) and text.lower() not in _YAML_WORDS:
        return text
    if all(_yaml_printable(c) for c in text) and "\n" not in text and "\r" not in text \
            and "\x85" not in text and "\t" not in text:
        return "'" + text.replace("'", "''") + "'"
    out = []
    for c in text:
        o = ord(c)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif c != "\x85" and _yaml_printable(c):
            out.append(c)
        elif o <= 0xFFFF:
            out.append("\\u%04x" % o)
        else:
            out.append("\\U%08x" % o)
    return '"' + "".join(out) + '"'


def yaml_key(key: str) -> str:
    """A map key Spring Boot keeps as written: bracketed, since a plain key loses ``_`` and upper case."""
    return yaml_str("[" + key + "]")


# ---------------------------------------------------------------------------------------------
# Arguments: written so that onebeat's typing (ConfiguredArguments) gives back the Python values


def _reads_as_json(text: str) -> bool:
    """Whether ConfiguredArguments would take this text for a JSON value rather than plain text."""
    t = text.strip()
    if t in ("true", "false", "null"):
        return True
    if (t.startswith("[") and t.endswith("]")) or (t.startswith("{") and t.endswith("}")):
        return True
    if len(t) >= 2 and t.startswith('"') and t.endswith('"'):
        return True
    return bool(_JSON_NUMBER.match(t))


def _check_json(value: Any, where: str) -> None:
    """Refuses what JSON (and so onebeat and Celery's json serializer) cannot carry as the same value."""
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        return
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise Refusal(f"{where}: {show(value)} is not a JSON number")
        return
    if isinstance(value, str):
        if "\x00" in value:
            raise Refusal(f"{where}: holds a NUL character, which onebeat (PostgreSQL) cannot store")
        if any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            raise Refusal(f"{where}: holds a lone surrogate, which is not valid text")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_json(item, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise Refusal(f"{where}: key {show(k)} is not a string; JSON objects have text keys")
            _check_json(k, f"{where} key {show(k)}")
            _check_json(v, f"{where}[{show(k)}]")
        return
    raise Refusal(f"{where}: {type(value).__name__} {show(value)} is not a JSON value (onebeat sends JSON)")


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)


def yaml_argument(value: Any) -> str:
    """One argument as a YAML scalar that onebeat types back to ``value``."""
    if value is None:
        return "'null'"  # a YAML null reaches Spring as ""; the text null is typed to null
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _json_text(value)  # read as a number by YAML or, failing that, by onebeat's typing
    if isinstance(value, str):
        return yaml_str(_json_text(value) if _reads_as_json(value) else value)
    # lists and objects: as JSON text, which onebeat types as a whole (its strings stay strings)
    return yaml_str(_json_text(value))


# ---------------------------------------------------------------------------------------------
# Schedules


def _runs(values: List[int], label: Callable[[int], str]) -> str:
    out = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{label(values[i])}-{label(values[j])}")
        elif j == i + 1:
            out.extend((label(values[i]), label(values[j])))
        else:
            out.append(label(values[i]))
        i = j + 1
    return ",".join(out)


def compress_field(values: Iterable[int], lo: int, hi: int, names: Optional[Sequence[str]] = None) -> str:
    """Writes a set of values of one cron field as a short Unix cron field: ``*``, ``*/15``, ``1-10/2``, ``1-5,7``."""
    vals = sorted(set(values))
    if not vals:
        raise Refusal("a cron field with no value never fires")
    if vals[0] < lo or vals[-1] > hi:
        raise Refusal(f"value out of range {lo}-{hi}: {vals}")
    if vals == list(range(lo, hi + 1)):
        return "*"
    if names is not None:
        return _runs(vals, lambda v: names[v - lo])
    best = _runs(vals, str)
    if len(vals) >= 3:
        step = vals[1] - vals[0]
        if step > 1 and vals == list(range(vals[0], vals[-1] + 1, step)):
            if vals[0] == lo and vals[-1] + step > hi:
                stepped = f"*/{step}"
            elif len(vals) >= 4:  # 8,12,16 reads better than 8-16/4
                stepped = f"{vals[0]}-{vals[-1]}/{step}"
            else:
                stepped = best
            if len(stepped) < len(best):
                best = stepped
    return best


def parse_unix_field(text: str, lo: int, hi: int, names: Optional[Sequence[str]] = None) -> set:
    """Reads back a field as Unix cron (and onebeat) read it, to check what was written."""
    out = set()
    for part in text.split(","):
        step = 1
        if "/" in part:
            part, s = part.split("/")
            step = int(s)
        if part == "*":
            a, b = lo, hi
        elif "-" in part:
            a, b = (_unix_value(x, lo, names) for x in part.split("-"))
        else:
            a = b = _unix_value(part, lo, names)
        if a > b:
            raise ValueError(f"range {part} ends before it starts")
        out.update(range(a, b + 1, step))
    return out


def _unix_value(text: str, lo: int, names: Optional[Sequence[str]]) -> int:
    if names is not None and text.upper() in names:
        return lo + names.index(text.upper())
    return int(text)


def _celery_fields(cron) -> tuple:
    return (set(cron.minute), set(cron.hour), set(cron.day_of_month), set(cron.month_of_year),
            set(cron.day_of_week))


def cron_from_crontab(cron) -> tuple:
    """The cron expression onebeat fires at the same minutes as a celery ``crontab``, and notes.

    Celery fires on the days whose day of month, month and day of week are *all* in their sets. Unix
    cron (and onebeat's 5-field cron) match the same days when at most one of the day fields is
    restricted; when both are, Unix cron fires on days matching *either*, so such an entry is
    converted to a Quartz ``#`` expression when it is "the n-th weekday of the month" and refused
    otherwise.
    """
    minute, hour, dom, moy, dow = _celery_fields(cron)
    notes = []
    dom_full = dom == set(range(1, 32))
    dow_full = dow == set(range(0, 7))
    if not dom_full:
        if not any(d <= _DAYS_IN_MONTH[m - 1] for m in moy for d in dom):
            raise Refusal(f"crontab never fires: no month of month_of_year {_show(cron, 'month_of_year')} has a day "
                          f"of day_of_month {_show(cron, 'day_of_month')}")
    m_text = compress_field(minute, 0, 59)
    h_text = compress_field(hour, 0, 23)
    mon_text = compress_field(moy, 1, 12)
    if not dom_full and not dow_full:
        weeks = {frozenset(range(1 + 7 * k, 8 + 7 * k)): k + 1 for k in range(4)}
        nth = weeks.get(frozenset(dom))
        if nth is not None and len(dow) == 1:
            day = DAY_NAMES[next(iter(dow))]
            quartz = f"0 {m_text} {h_text} ? {mon_text} {day}#{nth}"
            notes.append(f"day_of_month {_show(cron, 'day_of_month')} and day_of_week {_show(cron, 'day_of_week')}: "
                         f"celery fires on days matching both, the {_ordinal(nth)} {day} of the month; written as the "
                         f"Quartz expression {quartz} (Unix cron would fire on days matching either)")
            return quartz, notes
        raise Refusal(
            f"day_of_month {_show(cron, 'day_of_month')} and day_of_week {_show(cron, 'day_of_week')} are both "
            "restricted: celery fires only on days matching both, Unix cron on days matching either, and onebeat "
            "refuses a 5-field cron restricting both days; only 'the n-th weekday of the month' (day_of_month "
            "1-7, 8-14, 15-21 or 22-28 with one day_of_week) converts exactly, to Quartz 'd#n'. Split the entry, "
            "or write a 6-field Quartz cron by hand")
    dom_text = compress_field(dom, 1, 31)
    dow_text = compress_field(dow, 0, 6, DAY_NAMES)
    expression = " ".join((m_text, h_text, dom_text, mon_text, dow_text))
    verify_unix_cron(expression, (minute, hour, dom, moy, dow))
    return expression, notes


def verify_unix_cron(expression: str, sets: tuple) -> None:
    """Reads the expression back with Unix cron's rules and checks that it is celery's sets exactly."""
    f = expression.split()
    back = (parse_unix_field(f[0], 0, 59), parse_unix_field(f[1], 0, 23), parse_unix_field(f[2], 1, 31),
            parse_unix_field(f[3], 1, 12), parse_unix_field(f[4], 0, 6, DAY_NAMES))
    if back != tuple(sets):
        raise AssertionError(f"conversion error: {expression} reads back as {back}, not {sets}")
    if not f[2].startswith("*") and not f[4].startswith("*"):
        raise AssertionError(f"conversion error: {expression} restricts both day fields")


def _show(cron, attr: str) -> str:
    orig = getattr(cron, "_orig_" + attr, None)
    return repr(str(orig)) if orig is not None else repr(sorted(getattr(cron, attr)))


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}[n]


# The years searched for a zone's clock changes. Fixed, not "from today", so that the file is the same
# whenever the importer runs.
DST_SEARCH_YEARS = (2026, 2034)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def repeated_time_note(sets: tuple, zone: str) -> Optional[str]:
    """What differs from celery beat when the zone's clocks go back, for a cron onebeat runs on elapsed time.

    onebeat's cron with every value in its minute or hour field ignores the overlap policy and fires
    both occurrences of a repeated wall-clock time (docs/schedules.md, "Elapsed-time crons"); celery beat
    fires a repeated time once, at its first occurrence (it waits for the wall clock to pass its
    last run again). Such a job gets, on each night the clocks go back, one extra run per matching
    time of the repeated stretch. Returns the note naming the first such night from
    ``DST_SEARCH_YEARS`` on which the cron matches a repeated time, or None (a cron that is not on
    elapsed time, a zone without such a night, a cron matching no repeated time).
    """
    minute, hour, dom, moy, dow = sets
    fields = [name for name, values, size in (("minute", minute, 60), ("hour", hour, 24)) if len(values) == size]
    if not fields:
        return None
    tz = _zone_info(zone)
    if tz is None:
        return None
    for change, before, after in _clock_changes(tz):
        if after >= before:
            continue  # clocks going forward: nothing is repeated
        first = (change + after).replace(tzinfo=None)  # the first wall-clock time shown twice
        length = int((before - after).total_seconds() // 60)
        repeated = [first + _dt.timedelta(minutes=k) for k in range(length)]
        matching = [t for t in repeated if t.minute in minute and t.hour in hour and t.day in dom
                    and t.month in moy and t.isoweekday() % 7 in dow]
        if not matching:
            continue
        last = repeated[-1]
        day = f"{first.day} {_MONTHS[first.month - 1]} {first.year}"
        runs = f"{len(matching)} run{'s' if len(matching) != 1 else ''}"
        return (f"daylight saving: onebeat runs this cron on elapsed time (every value in its "
                f"{' and '.join(fields)} field{'s' if len(fields) > 1 else ''}), so it fires both occurrences of a "
                f"time the clocks repeat and its overlap policy does not apply; celery beat fires a repeated time "
                f"once. On {day} {zone} shows {first:%H:%M}-{last:%H:%M} twice: onebeat makes {runs} there that "
                f"celery beat never made, and likewise each time the clocks go back")
    return None


def _zone_info(zone: str):
    try:
        from zoneinfo import ZoneInfo
        return ZoneInfo(zone)
    except Exception:  # an unknown zone is onebeat's to refuse; the note is only a note
        return None


def _clock_changes(tz) -> Iterable[tuple]:
    """(instant of the change in UTC, offset before, offset after) for each change of the zone's offset."""
    start = _dt.datetime(DST_SEARCH_YEARS[0], 1, 1, tzinfo=_dt.timezone.utc)
    end = _dt.datetime(DST_SEARCH_YEARS[1], 1, 1, tzinfo=_dt.timezone.utc)
    day = _dt.timedelta(days=1)
    t, offset = start, start.astimezone(tz).utcoffset()
    while t < end:
        following = (t + day).astimezone(tz).utcoffset()
        if following != offset:
            lo, hi = t, t + day  # the offset is `offset` at lo and `following` at hi
            while hi - lo > _dt.timedelta(seconds=1):
                mid = lo + (hi - lo) / 2
                if mid.astimezone(tz).utcoffset() == offset:
                    lo = mid
                else:
                    hi = mid
            yield hi.replace(microsecond=0), offset, following
            offset = following
        t += day


def interval_text(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def whole_seconds(value: Any, what: str) -> int:
    """Seconds of a timedelta or a number, refused unless a whole number from 1 s to 2^31-1 s."""
    if isinstance(value, bool):
        raise Refusal(f"{what} {show(value)} is not a duration")
    if isinstance(value, _dt.timedelta):
        micros = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
        shown = str(value)
    elif isinstance(value, (int, float)):
        if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
            raise Refusal(f"{what} {show(value)} is not a duration")
        micros = round(value * 1_000_000) if isinstance(value, float) else value * 1_000_000
        shown = f"{show(value)} s"
        if isinstance(value, float) and value != int(value):
            micros = None
    else:
        raise Refusal(f"{what} {show(value)} is not a number of seconds or a timedelta")
    if micros is None or micros % 1_000_000:
        raise Refusal(f"{what} {shown} is not a whole number of seconds; onebeat's intervals are whole seconds")
    seconds = micros // 1_000_000
    if seconds < 1:
        raise Refusal(f"{what} {shown} is not positive")
    if seconds > MAX_INTERVAL_SECONDS:
        raise Refusal(f"{what} {shown} is longer than onebeat's longest interval, {MAX_INTERVAL_SECONDS} s")
    return seconds


def zone_name(tz: Any) -> str:
    """The IANA name of a tzinfo (zoneinfo, pytz, dateutil, datetime.timezone)."""
    if tz is None:
        return "UTC"
    if isinstance(tz, str):
        return tz
    for attr in ("key", "zone"):
        name = getattr(tz, attr, None)
        if isinstance(name, str) and name:
            return name
    if isinstance(tz, _dt.timezone):
        offset = tz.utcoffset(None)
        if offset == _dt.timedelta(0):
            return "UTC"
        if offset.total_seconds() % 3600 == 0:
            hours = int(offset.total_seconds() // 3600)
            return f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}"  # POSIX signs: Etc/GMT-2 is UTC+2
        raise Refusal(f"time zone {tz} is a fixed offset of no whole hours; onebeat needs an IANA zone")
    if type(tz).__name__ == "LocalTimezone":
        return local_zone_name()
    raise Refusal(f"time zone {show(tz)} has no IANA name")


def local_zone_name() -> str:
    """The machine's zone, for an app with enable_utc=False and no timezone (celery then uses local time)."""
    tz = os.environ.get("TZ", "").lstrip(":")
    if tz and "/" in tz or tz == "UTC":
        return tz
    try:
        with open("/etc/timezone", encoding="utf-8") as f:
            name = f.read().strip()
            if name:
                return name
    except OSError:
        pass
    link = os.path.realpath("/etc/localtime")
    if "zoneinfo/" in link:
        return link.split("zoneinfo/", 1)[1]
    raise Refusal("the app uses the machine's local time (enable_utc=False, no timezone) and its IANA name "
                  "cannot be found; set the app's timezone")


def crontab_zone(cron, default_zone: str) -> str:
    own = cron.__dict__.get("tz")  # django-celery-beat's TzAwareCrontab keeps its zone here
    if own is not None:
        return zone_name(own)
    if getattr(cron, "nowfun", None) is not None:
        now = cron.nowfun()
        if not isinstance(now, _dt.datetime) or now.tzinfo is None:
            raise Refusal("crontab's nowfun returns a time without a zone; the zone it means is unknown")
        return zone_name(now.tzinfo)
    return default_zone


def schedule_fields(entry: Entry, default_zone: str, conv: Converted) -> list:
    """The job's schedule fields (cron and zone, or every) for a celery schedule object."""
    from celery import schedules as cs
    sched = entry.schedule
    if isinstance(sched, bool):
        raise Refusal(f"schedule {show(sched)} is not a schedule")
    if isinstance(sched, (int, float, _dt.timedelta)):
        seconds = whole_seconds(sched, "interval")
        return _every(seconds, entry, conv)
    if isinstance(sched, cs.crontab):
        expression, notes = cron_from_crontab(sched)
        conv.notes.extend(notes)
        zone = entry.zone or crontab_zone(sched, default_zone)
        overlap = repeated_time_note(_celery_fields(sched), zone)
        if overlap:
            conv.notes.append(overlap)
        return [("cron", yaml_str(expression)), ("zone", yaml_str(zone))]
    if isinstance(sched, cs.solar):
        raise Refusal(f"solar schedule {show(sched.event)} at ({sched.lat}, {sched.lon}): onebeat has no "
                      "sunrise/sunset schedules; use a cron near the usual time, or compute the times in a job")
    if type(sched) is cs.schedule or (isinstance(sched, cs.schedule) and type(sched).__name__ == "schedule"):
        if getattr(sched, "relative", False):
            entry.relative = True
        seconds = whole_seconds(sched.run_every, "run_every")
        return _every(seconds, entry, conv)
    cls = type(sched)
    if cls.__repr__ is object.__repr__:
        described = _attributes(sched, 0)
        described = f"attributes: {described}" if described else "no attributes"
    else:
        described = show(sched)
    raise Refusal(f"schedule class {_class_name(cls)} ({described}) has no onebeat equivalent; "
                  "onebeat imports crontab and fixed intervals")


def _every(seconds: int, entry: Entry, conv: Converted) -> list:
    conv.notes.append(f"every {interval_text(seconds)}: {EPOCH_NOTE}")
    if entry.relative:
        conv.unsupported.append("relative=True: not carried over; onebeat aligns every interval to the epoch "
                                "instead of rounding the first run to the interval's resolution")
    return [("every", interval_text(seconds))]


# ---------------------------------------------------------------------------------------------
# Options (apply_async's), arguments and names


def option_fields(entry: Entry, conv: Converted) -> tuple:
    """(queue, options lines) from the entry's apply_async options."""
    opts = dict(entry.options or {})
    queue = opts.pop("queue", None)
    if queue is not None and not isinstance(queue, str):
        queue = getattr(queue, "name", None) or queue
    if queue is not None:
        if not isinstance(queue, str) or not queue.strip():
            raise Refusal(f"options.queue {show(queue)} is not a queue name")
        if "\x00" in queue:
            raise Refusal("options.queue holds a NUL character")
        if queue == RESERVED_QUEUE:
            raise Refusal(f"queue {show(queue)} is onebeat's own (alert deliveries)")
    lines = []
    if "expires" in opts:
        value = opts.pop("expires")
        if value is not None:
            try:
                if isinstance(value, _dt.datetime):
                    raise Refusal(f"expires={value.isoformat()} is a point in time; onebeat's expires is a duration "
                                  "after each scheduled instant (write expires as seconds or a timedelta)")
                lines.append(("expires", _expires_text(value)))
            except Refusal as r:
                conv.unsupported.append(str(r))
    if "priority" in opts:
        value = opts.pop("priority")
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
                conv.unsupported.append(f"priority={show(value)}: onebeat's priority is a whole number 0 to 255")
            else:
                lines.append(("priority", str(value)))
    for key, yaml_name in (("exchange", "exchange"), ("routing_key", "routing-key")):
        if key in opts:
            value = opts.pop(key)
            if value is not None and not isinstance(value, str):
                value = getattr(value, "name", value)
            if value is None or value == "":
                continue
            if not isinstance(value, str) or "\x00" in value:
                conv.unsupported.append(f"{key}={show(value)}: not a name onebeat can carry")
            else:
                lines.append((yaml_name, yaml_str(value)))
    if "headers" in opts:
        headers = opts.pop("headers")
        kept = []
        for name, value in (headers or {}).items():
            if not isinstance(name, str) or not name.strip() or "[" in name or "]" in name or "\x00" in name:
                conv.unsupported.append(f"header {show(name)}: not a header name onebeat can carry")
            elif name.lower() in RESERVED_HEADERS:
                conv.unsupported.append(f"header {show(name)}: Celery's own header, which a job cannot replace")
            elif not isinstance(value, str) or "\x00" in value:
                conv.unsupported.append(f"header {show(name)}={show(value)}: onebeat's headers are text; "
                                        "the worker would get a string")
            else:
                kept.append((yaml_key(name), yaml_str(value)))
        if kept:
            lines.append(("headers", kept))
    for key in sorted(opts, key=str):
        conv.unsupported.append(f"option {key}={show(opts[key])}: onebeat has no such delivery option; "
                                "the job is written without it")
    return queue, lines


def _expires_text(value: Any) -> str:
    if isinstance(value, bool):
        raise Refusal(f"expires={show(value)} is not a duration")
    if isinstance(value, _dt.timedelta):
        micros = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
    elif isinstance(value, (int, float)) and math.isfinite(value):
        micros = round(value * 1_000_000)
        if isinstance(value, float) and abs(micros - value * 1_000_000) > 1e-3:
            raise Refusal(f"expires={show(value)} is finer than a microsecond")
    else:
        raise Refusal(f"expires={show(value)} is not seconds, a timedelta or a datetime")
    if micros <= 0:
        raise Refusal(f"expires={show(value)} is not positive")
    if micros % 1_000_000 == 0:
        return interval_text(micros // 1_000_000)
    if micros % 1000 == 0:
        return f"{micros // 1000}ms"
    return f"{micros}us"


def argument_fields(entry: Entry) -> list:
    lines = []
    args = entry.args
    if args is None:
        args = ()
    if isinstance(args, (str, bytes)) or not isinstance(args, (list, tuple)):
        raise Refusal(f"args {show(args)} is not a list or tuple")
    _check_json(list(args), "args")
    if args:
        lines.append(("args", [yaml_argument(a) for a in args]))
    kwargs = entry.kwargs or {}
    if not isinstance(kwargs, dict):
        raise Refusal(f"kwargs {show(kwargs)} is not a dict")
    _check_json(kwargs, "kwargs")
    if kwargs:
        items = []
        for key, value in kwargs.items():
            if not key or "[" in key or "]" in key or key != key.strip():
                raise Refusal(f"kwargs key {show(key)}: onebeat's configuration cannot carry a key that is empty, holds "
                              "'[' or ']' or has surrounding blanks")
            items.append((yaml_key(key), yaml_argument(value)))
        lines.append(("kwargs", items))
    return lines


def utf16_length(text: str) -> int:
    """The length Java's ``String.length()`` gives, which onebeat's job-name limit counts: UTF-16 code units."""
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def utf16_prefix(text: str, units: int) -> str:
    """The longest start of ``text`` of at most ``units`` UTF-16 units, never half of a character."""
    used = 0
    for i, c in enumerate(text):
        used += 2 if ord(c) > 0xFFFF else 1
        if used > units:
            return text[:i]
    return text


def sanitize_name(raw: Any, taken: set, index: int) -> tuple:
    """A valid, unique onebeat job name for a beat entry name, and why it differs, if it does."""
    original = raw if isinstance(raw, str) else str(raw)
    reasons = []
    name = original
    if name != name.strip():
        name = name.strip()
        reasons.append("surrounding blanks removed")
    cleaned = "".join("-" if (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or 0xD800 <= ord(c) <= 0xDFFF) else c
                      for c in name)
    if cleaned != name:
        reasons.append("control characters replaced by '-'")
        name = cleaned
    if "/" in name:
        name = name.replace("/", "-")
        reasons.append("'/' replaced by '-' (a job name is a path segment of the admin API and the console)")
    if not name:
        name = f"beat-entry-{index + 1}"
        reasons.append("the name was blank")
    if utf16_length(name) > JOB_NAME_MAX:
        digest = hashlib.sha256(original.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        name = utf16_prefix(name, JOB_NAME_MAX - 9).rstrip() + "-" + digest
        reasons.append(f"longer than {JOB_NAME_MAX} characters, shortened (counted as onebeat counts them, in "
                       f"UTF-16 units: a character beyond U+FFFF, such as an emoji, counts two; "
                       f"this one had {utf16_length(original.strip())})")
    if name in taken:
        base = utf16_prefix(name, JOB_NAME_MAX - 4)
        n = 2
        while f"{base}-{n}" in taken:
            n += 1
        name = f"{base}-{n}"
        reasons.append("another entry has that name")
    taken.add(name)
    return name, reasons


# ---------------------------------------------------------------------------------------------
# Conversion of all entries


def convert(entries: List[Entry], default_zone: str) -> List[Converted]:
    taken: set = set()
    out = []
    for index, entry in enumerate(entries):
        conv = Converted(source_name=str(entry.name))
        conv.unsupported.extend(entry.unsupported)
        conv.notes.extend(entry.notes)
        out.append(conv)
        if entry.skipped:
            conv.skipped = entry.skipped
            continue
        try:
            if entry.refusal:
                raise Refusal(entry.refusal)
            for key in entry.unknown_keys:
                conv.unsupported.append(f"entry key {show(key)}: not a beat_schedule field onebeat knows; ignored")
            if not isinstance(entry.task, str) or not entry.task.strip():
                raise Refusal(f"task {show(entry.task)} is not a task name")
            if "\x00" in entry.task:
                raise Refusal("task holds a NUL character")
            schedule = schedule_fields(entry, default_zone, conv)
            queue, options = option_fields(entry, conv)
            arguments = argument_fields(entry)
        except Refusal as r:
            conv.refused = str(r)
            continue
        name, reasons = sanitize_name(entry.name, taken, index)
        if reasons:
            conv.notes.insert(0, f"renamed from {str(entry.name)!r}: " + "; ".join(reasons))
        conv.name = name
        conv.fields = [("name", yaml_str(name))] + schedule + [("task", yaml_str(entry.task))]
        if queue is not None:
            conv.fields.append(("queue", yaml_str(queue)))
        conv.fields.extend(arguments)
        if options:
            conv.fields.append(("options", options))
        if entry.active_from is not None:
            conv.fields.append(("active-from", yaml_str(entry.active_from)))
        if entry.active_until is not None:
            conv.fields.append(("active-until", yaml_str(entry.active_until)))
    return out


def _utc_text(moment: "_dt.datetime") -> str:
    """A django-celery-beat datetime as onebeat reads an instant: UTC, ISO-8601, to the second or finer."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=_dt.timezone.utc)
    return aware.astimezone(_dt.timezone.utc).isoformat().replace("+00:00", "Z")


def render_yaml(results: List[Converted], source: str) -> str:
    lines = [f"# onebeat jobs imported from {source} by python3 -m onebeat.beat_import",
             "# Load unchanged: --spring.config.additional-location=file:onebeat-jobs.yaml"]
    refused = [r for r in results if r.refused]
    skipped = [r for r in results if r.skipped]
    if refused:
        lines.append("#")
        lines.append("# REFUSED, not in onebeat.jobs below:")
        for r in refused:
            lines.append(_comment(f"#   - {r.source_name!r}: {r.refused}"))
    if skipped:
        lines.append("#")
        lines.append("# SKIPPED:")
        for r in skipped:
            lines.append(_comment(f"#   - {r.source_name!r}: {r.skipped}"))
    jobs = [r for r in results if r.name is not None]
    lines.append("onebeat:")
    if not jobs:
        lines.append("  jobs: []")
        return "\n".join(lines) + "\n"
    lines.append("  jobs:")
    for r in jobs:
        lines.append(_comment(f"    # beat entry {r.source_name!r}"))
        for note in r.notes:
            lines.append(_comment(f"    # NOTE: {note}"))
        for item in r.unsupported:
            lines.append(_comment(f"    # UNSUPPORTED, not carried over: {item}"))
        first = True
        for key, value in r.fields:
            prefix = "    - " if first else "      "
            first = False
            lines.extend(_yaml_field(prefix, key, value, "      "))
    return "\n".join(lines) + "\n"


def _yaml_field(prefix: str, key: str, value: Any, indent: str) -> list:
    if isinstance(value, str):
        return [f"{prefix}{key}: {value}"]
    if key == "args":  # a list of scalars
        return [f"{prefix}{key}:"] + [f"{indent}  - {v}" for v in value]
    out = [f"{prefix}{key}:"]
    for k, v in value:
        out.extend(_yaml_field(indent + "  ", k, v, indent + "  "))
    return out


def _comment(text: str) -> str:
    # a comment is one line: fold any line break a message or name holds; no address from a repr
    return _ADDRESS.sub("", re.sub(r"[\r\n\x85\u2028\u2029]", " ", text))


# ---------------------------------------------------------------------------------------------
# Reading the schedules


def load_app(spec: str):
    """The Celery app named like celery's -A: ``module:attr``, ``module.attr`` or a module holding ``app``/``celery``."""
    from celery import Celery
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())

    def pick(obj, where):
        if isinstance(obj, Celery):
            return obj
        if callable(obj) and not isinstance(obj, type) and getattr(obj, "__module__", None):
            try:
                made = obj()
            except TypeError:
                made = None
            if isinstance(made, Celery):
                return made
        raise ImportFailure(f"{where} is {type(obj).__name__}, not a Celery app")

    try:
        if ":" in spec:
            module_name, attr = spec.split(":", 1)
            obj = importlib.import_module(module_name)
            for part in attr.split("."):
                obj = getattr(obj, part)
            return pick(obj, spec)
        try:
            module = importlib.import_module(spec)
        except ModuleNotFoundError as e:
            if "." not in spec or e.name != spec:
                raise
            module_name, attr = spec.rsplit(".", 1)
            return pick(getattr(importlib.import_module(module_name), attr), spec)
        for attr in ("app", "celery"):
            obj = getattr(module, attr, None)
            if isinstance(obj, Celery):
                return obj
            if attr == "celery" and obj is not None and hasattr(obj, "__path__") is False \
                    and type(obj).__name__ == "module":
                for inner in ("app", "celery"):
                    if isinstance(getattr(obj, inner, None), Celery):
                        return getattr(obj, inner)
        try:
            sub = importlib.import_module(spec + ".celery")
            for inner in ("app", "celery"):
                if isinstance(getattr(sub, inner, None), Celery):
                    return getattr(sub, inner)
        except ModuleNotFoundError as e:
            if e.name != spec + ".celery":
                raise
        apps = [v for v in vars(module).values() if isinstance(v, Celery)]
        if len(apps) == 1:
            return apps[0]
        raise ImportFailure(f"module {spec!r} has no Celery app named app or celery; write {spec}:<name>")
    except ImportFailure:
        raise
    except Exception as e:  # the user's module failing to import is the user's error, shown as is
        raise ImportFailure(f"cannot load the Celery app {spec!r}: {type(e).__name__}: {e}") from e


_ENTRY_KEYS = ("task", "schedule", "args", "kwargs", "options", "relative")


def app_entries(app) -> tuple:
    """(entries, default zone) from the app's beat_schedule."""
    conf = app.conf
    schedule = conf.beat_schedule or {}
    entries = []
    for name, spec in schedule.items():
        if not isinstance(spec, dict):
            entries.append(Entry(name=name, task=None, schedule=None, refusal=f"entry is {type(spec).__name__}, "
                                 "not a dict with task and schedule"))
            continue
        entry = Entry(name=name, task=spec.get("task"), schedule=spec.get("schedule"),
                      args=spec.get("args", ()), kwargs=spec.get("kwargs"),
                      options=dict(spec.get("options") or {}), relative=bool(spec.get("relative", False)),
                      unknown_keys=[k for k in spec if k not in _ENTRY_KEYS])
        if entry.schedule is None:
            entry.refusal = "entry has no schedule"
        _route(app, entry)
        entries.append(entry)
    return entries, app_zone(app)


def _route(app, entry: Entry) -> None:
    """The queue (and routing) celery beat would send the task with: options, else task_routes, else the default."""
    if not isinstance(entry.task, str):
        return
    explicit = "queue" in entry.options and entry.options["queue"] is not None
    try:
        args = entry.args if isinstance(entry.args, (list, tuple)) else ()
        kwargs = entry.kwargs if isinstance(entry.kwargs, dict) else {}
        routed = app.amqp.router.route(dict(entry.options), entry.task, args, kwargs)
    except Exception as e:
        entry.notes.append(f"task_routes could not be applied ({type(e).__name__}: {e}); queue from options only")
        return
    for key, value in routed.items():
        if key not in entry.options or entry.options[key] is None:
            entry.options[key] = value
            if key != "queue":
                entry.notes.append(f"{key} from the app's task_routes")
    if not explicit and "queue" in entry.options:
        q = entry.options["queue"]
        qname = getattr(q, "name", q)
        if qname == app.conf.task_default_queue:
            entry.notes.append(f"queue {qname!r} is Celery's task_default_queue (onebeat's default is 'default')")
        else:
            entry.notes.append(f"queue {qname!r} from the app's task_routes")


def app_zone(app) -> str:
    conf = app.conf
    if conf.timezone:
        return zone_name(conf.timezone)
    if conf.enable_utc:
        return "UTC"
    return local_zone_name()


def django_entries(settings_module: str, app=None) -> tuple:
    """(entries, default zone) from django-celery-beat's PeriodicTask rows, by name."""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    try:
        import django
        django.setup()
        from django.conf import settings
        from django_celery_beat.models import PeriodicTask
        rows = list(PeriodicTask.objects.select_related("interval", "crontab", "solar", "clocked").order_by("name"))
    except Exception as e:
        raise ImportFailure(f"cannot read django-celery-beat's schedules with settings {settings_module!r}: "
                            f"{type(e).__name__}: {e}") from e
    default_queue = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", None) or "celery"
    entries = []
    now = _dt.datetime.now(_dt.timezone.utc)
    for row in rows:
        entries.append(_row_entry(row, now, app, default_queue))
    zone = app_zone(app) if app is not None else "UTC"
    return entries, zone


def _row_entry(row, now, app, default_queue: str) -> Entry:
    from datetime import timedelta
    entry = Entry(name=row.name, task=row.task, schedule=None)
    if not row.enabled:
        entry.skipped = "disabled (enabled=False in django-celery-beat)"
        return entry
    try:
        entry.args = json.loads(row.args or "[]")
        entry.kwargs = json.loads(row.kwargs or "{}")
        headers = json.loads(row.headers or "{}")
    except ValueError as e:
        entry.refusal = f"args, kwargs or headers are not valid JSON: {e}"
        return entry
    options = {}
    if row.queue:
        options["queue"] = row.queue
    if row.exchange:
        options["exchange"] = row.exchange
    if row.routing_key:
        options["routing_key"] = row.routing_key
    if row.priority is not None:
        options["priority"] = row.priority
    if headers:
        options["headers"] = headers
    if getattr(row, "expire_seconds", None):
        options["expires"] = row.expire_seconds
    entry.options = options
    if row.expires is not None:
        # the row stops at that point in time: the end of the job's active period
        entry.active_until = _utc_text(row.expires)
    if row.one_off:
        entry.refusal = "one_off=True: the task runs once; onebeat's jobs are periodic (use the admin API's trigger)"
        return entry
    if row.start_time is not None:
        start = row.start_time if row.start_time.tzinfo else row.start_time.replace(tzinfo=_dt.timezone.utc)
        if start > now:
            # the row begins at that point in time: the start of the job's active period
            entry.active_from = _utc_text(start)
        else:
            entry.notes.append(f"start_time={start.isoformat()} has passed; not carried over")
    if row.interval is not None:
        iv = row.interval
        entry.schedule = timedelta(**{iv.period: iv.every})
    elif row.crontab is not None:
        from celery.schedules import crontab
        c = row.crontab
        try:
            entry.schedule = crontab(minute=c.minute, hour=c.hour, day_of_week=c.day_of_week,
                                     day_of_month=c.day_of_month, month_of_year=c.month_of_year)
        except Exception as e:
            entry.refusal = f"crontab {c} does not parse: {e}"
            return entry
        entry.zone = zone_name(c.timezone)
    elif row.solar is not None:
        s = row.solar
        entry.refusal = (f"solar schedule {s.event!r} at ({s.latitude}, {s.longitude}): onebeat has no "
                         "sunrise/sunset schedules; use a cron near the usual time")
    elif row.clocked is not None:
        entry.refusal = (f"clocked schedule at {row.clocked.clocked_time.isoformat()}: a one-off run at a point in "
                         "time; onebeat's jobs are periodic")
    else:
        entry.refusal = "the row has no schedule"
    if app is not None:
        _route(app, entry)
    elif "queue" not in options:
        options["queue"] = default_queue
        entry.notes.append(f"queue {default_queue!r} is Celery's task_default_queue (no queue on the row; "
                           "pass the Celery app too to apply its task_routes)")
    return entry


# ---------------------------------------------------------------------------------------------
# Command line


def report(results: List[Converted], stream) -> int:
    """Writes the summary on stderr; returns how many entries or parts were refused or unsupported."""
    imported = [r for r in results if r.name is not None]
    refused = [r for r in results if r.refused]
    skipped = [r for r in results if r.skipped]
    problems = len(refused)
    print(f"onebeat.beat_import: {len(imported)} job(s) imported, {len(refused)} entr(y/ies) refused, "
          f"{len(skipped)} skipped", file=stream)
    for r in refused:
        print(f"  REFUSED {r.source_name!r}: {r.refused}", file=stream)
    for r in skipped:
        print(f"  SKIPPED {r.source_name!r}: {r.skipped}", file=stream)
    grouped = {}  # notes said of many entries, summarised in one line each
    for r in imported:
        for item in r.unsupported:
            problems += 1
            print(f"  UNSUPPORTED in {r.source_name!r}: {item}", file=stream)
        for note in r.notes:
            common = _common_note(note)
            if common:
                grouped.setdefault(common, []).append(r.source_name)
            else:
                print(f"  NOTE {r.source_name!r}: {note}", file=stream)
    for common, names in grouped.items():
        print(f"  NOTE {common} ({len(names)} job(s): {', '.join(repr(n) for n in names)})", file=stream)
    return problems


def _common_note(note: str) -> Optional[str]:
    if note.startswith("every "):
        return "intervals: " + EPOCH_NOTE
    if "is Celery's task_default_queue" in note:
        return "queue: " + note.split(" (no queue")[0]
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m onebeat.beat_import",
        description="Write a Celery beat_schedule (or django-celery-beat's database schedules) as onebeat's "
                    "onebeat.jobs YAML, on stdout; what cannot be carried over is listed on stderr.")
    parser.add_argument("app", nargs="?", help="the Celery app, as celery -A takes it: proj.celery:app or proj")
    parser.add_argument("--django-settings", metavar="MODULE",
                        help="read django-celery-beat's PeriodicTask table with these Django settings instead")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the YAML here instead of stdout")
    parser.add_argument("--strict", action="store_true",
                        help="exit 2 when any entry or part of one is refused or unsupported")
    ns = parser.parse_args(argv)
    if not ns.app and not ns.django_settings:
        parser.error("give the Celery app (proj.celery:app) or --django-settings")
    try:
        app = load_app(ns.app) if ns.app else None
        if ns.django_settings:
            entries, zone = django_entries(ns.django_settings, app)
            source = f"django-celery-beat ({ns.django_settings})"
        else:
            entries, zone = app_entries(app)
            source = f"celery app {ns.app} (timezone {zone})"
    except (ImportFailure, Refusal) as e:
        print(f"onebeat.beat_import: error: {e}", file=sys.stderr)
        return 1
    results = convert(entries, zone)
    text = render_yaml(results, source)
    if ns.output:
        with open(ns.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    problems = report(results, sys.stderr)
    return 2 if ns.strict and problems else 0


if __name__ == "__main__":
    sys.exit(main())
