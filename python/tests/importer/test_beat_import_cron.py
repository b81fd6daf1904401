"""The cron written for a celery crontab fires at the same minutes as celery beat does.

Two independent references: celery's own is_due, run the way beat runs it (sleeping what it says, at
most beat_max_loop_interval), and a from-scratch reading of the written expression with Unix cron's
rules (including its day-field rule: either field starting with '*' ANDs them, otherwise they are
ORed)."""

from datetime import datetime, timedelta, timezone

import pytest
from celery import Celery
from celery.schedules import crontab

from onebeat.beat_import import Refusal, cron_from_crontab

UTC = timezone.utc
APP = Celery("cron_equivalence")
APP.conf.enable_utc = True
APP.conf.timezone = "UTC"
NAMES = {"SUN": 0, "MON": 1, "TUE": 2, "WED": 3, "THU": 4, "FRI": 5, "SAT": 6}


def unix_field(text, lo, hi, names=None):
    values = set()
    for element in text.split(","):
        base, _, step = element.partition("/")
        step = int(step) if step else 1
        if base == "*":
            start, end = lo, hi
        else:
            first, _, last = base.partition("-")
            start = int(names[first]) if names and first in names else int(first)
            end = (int(names[last]) if names and last in names else int(last)) if last else start
            if step > 1 and not last:
                end = hi
        values.update(range(start, end + 1, step))
    return values


def unix_matcher(expression):
    minute, hour, dom, month, dow = expression.split()
    mins, hours = unix_field(minute, 0, 59), unix_field(hour, 0, 23)
    doms, months, dows = unix_field(dom, 1, 31), unix_field(month, 1, 12), unix_field(dow, 0, 7, NAMES)
    if 7 in dows:
        dows = (dows - {7}) | {0}
    either = not dom.startswith("*") and not dow.startswith("*")

    def day_matches(day):
        weekday = day.isoweekday() % 7
        if day.month not in months:
            return False
        if either:
            return day.day in doms or weekday in dows
        return day.day in doms and weekday in dows

    def fires(start, count):
        out = []
        day = start.replace(hour=0, minute=0, second=0, microsecond=0)
        while len(out) < count:
            if day_matches(day):
                for h in sorted(hours):
                    for m in sorted(mins):
                        t = day.replace(hour=h, minute=m)
                        if t > start:
                            out.append(t)
            day += timedelta(days=1)
        return out[:count]

    return fires


def quartz_nth_matcher(expression):
    # 0 m h ? months DAY#n: the n-th such weekday of each month
    _, minute, hour, _, month, nth = expression.split()
    day_name, n = nth.split("#")
    inner = unix_matcher(f"{minute} {hour} {7 * (int(n) - 1) + 1}-{7 * int(n)} {month} *")

    def fires(start, count):
        out, t = [], start
        while len(out) < count:
            for fire in inner(t, 1):
                t = fire
                if fire.isoweekday() % 7 == NAMES[day_name]:
                    out.append(fire)
        return out

    return fires


def celery_beat_fires(cron, start, count, max_sleep=1800):
    clock = [start]
    sched = crontab(minute=cron._orig_minute, hour=cron._orig_hour, day_of_week=cron._orig_day_of_week,
                    day_of_month=cron._orig_day_of_month, month_of_year=cron._orig_month_of_year,
                    app=APP, nowfun=lambda: clock[0])
    last, out = start, []
    while len(out) < count:
        due, remaining = sched.is_due(last)
        if due:
            fired = clock[0].replace(second=0, microsecond=0)
            out.append(fired)
            last = clock[0]
        clock[0] = clock[0] + timedelta(seconds=max(1, min(remaining, max_sleep)))
    return out


CASES = [
    dict(minute="*/15"),
    dict(minute=0, hour="*/3"),
    dict(minute="0,30", hour="1-10/2", day_of_month="1-31/2"),
    dict(minute=30, hour=7, day_of_week="mon-fri"),
    dict(minute=5, hour="22-23", day_of_week="fri-sun"),  # celery wraps the range
    dict(minute=0, hour=23, day_of_week=0),  # 0 is Sunday in celery
    dict(minute=0, hour=23, day_of_week="sun"),
    dict(minute=0, hour=6, day_of_month=1, month_of_year="1,4,7,10"),
    dict(minute=0, hour=0, day_of_month="2-30/7", month_of_year="2-12/2"),
    dict(minute="1-10/3,45", hour="0,12"),
    dict(minute=59, hour=23, day_of_month=31),
    dict(minute=0, hour=12, day_of_week="*/2"),
    dict(minute=0, hour=9, day_of_week=1, day_of_month="1-7"),
    dict(minute=15, hour=8, day_of_week="fri", day_of_month="22-28", month_of_year="3-5"),
]


@pytest.mark.parametrize("fields", CASES, ids=lambda f: " ".join(f"{k}={v}" for k, v in f.items()))
def test_written_cron_fires_when_celery_beat_fires(fields):
    cron = crontab(**fields)
    expression, _ = cron_from_crontab(cron)
    matcher = quartz_nth_matcher(expression) if "#" in expression else unix_matcher(expression)
    for start in (datetime(2026, 12, 30, 22, 50, tzinfo=UTC), datetime(2028, 2, 27, 0, 0, tzinfo=UTC)):
        expected = celery_beat_fires(cron, start, 8)
        assert matcher(start, 8) == expected, (fields, expression)


@pytest.mark.parametrize("fields, expected", [
    (dict(), "* * * * *"),
    (dict(minute=0), "0 * * * *"),
    (dict(minute="*/15"), "*/15 * * * *"),
    (dict(minute="5-59/15"), "5-50/15 * * * *"),
    (dict(minute="0-59/1"), "* * * * *"),
    (dict(hour="1-10/2", minute=0), "0 1-9/2 * * *"),
    (dict(minute=0, hour=[8, 12, 16]), "0 8,12,16 * * *"),
    (dict(minute=0, hour="8-17"), "0 8-17 * * *"),
    (dict(minute=0, hour=0, day_of_week="mon-fri"), "0 0 * * MON-FRI"),
    (dict(minute=0, hour=0, day_of_week="sat,sun"), "0 0 * * SUN,SAT"),
    (dict(minute=0, hour=0, day_of_week="fri-mon"), "0 0 * * SUN,MON,FRI,SAT"),
    (dict(minute=0, hour=0, day_of_week="0-6"), "0 0 * * *"),
    (dict(minute=0, hour=0, day_of_month="*/10"), "0 0 */10 * *"),  # 1, 11, 21, 31
    (dict(minute=0, hour=0, day_of_month="1,15"), "0 0 1,15 * *"),
    (dict(minute=0, hour=0, month_of_year="*/2"), "0 0 * */2 *"),  # 1, 3, ... 11
    (dict(minute=0, hour=0, month_of_year="2-12/2"), "0 0 * 2-12/2 *"),
    (dict(minute=0, hour=9, day_of_week="tue", day_of_month="8-14"), "0 0 9 ? * TUE#2"),
])
def test_hand_written_expectations(fields, expected):
    assert cron_from_crontab(crontab(**fields))[0] == expected


@pytest.mark.parametrize("fields, reason", [
    (dict(minute=0, hour=9, day_of_week="mon", day_of_month="1-10"), "are both restricted"),
    (dict(minute=0, hour=9, day_of_week="mon,tue", day_of_month="1-7"), "are both restricted"),
    (dict(minute=0, hour=9, day_of_week="fri", day_of_month=13), "are both restricted"),
    (dict(minute=0, hour=0, day_of_month="30,31", month_of_year=2), "never fires"),
    (dict(minute=0, hour=0, day_of_month=31, month_of_year="4,6,9,11"), "never fires"),
])
def test_what_unix_cron_cannot_say_is_refused(fields, reason):
    with pytest.raises(Refusal, match=reason):
        cron_from_crontab(crontab(**fields))


def test_february_29th_is_kept():
    assert cron_from_crontab(crontab(minute=0, hour=0, day_of_month=29, month_of_year=2))[0] == "0 0 29 2 *"
