"""What the importer says of crons across the night a zone's clocks go back, checked against celery beat.

celery beat is Celery's own ``crontab.is_due`` run the way beat runs it (sleeping what it answers,
its clock in the app's zone as ``app.now()`` gives it) over Europe/Berlin's fall-back night, 25
October 2026 (03:00+02:00 becomes 02:00+01:00 at 01:00Z). onebeat is the DST policy of docs/schedules.md: a wall-clock
time the cron matches fires at its first occurrence (``overlap=first``, the default), and at both when
the cron has every value in its minute or hour field (an elapsed-time cron, which ignores the policy).
"""
import re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
import yaml
from celery import Celery
from celery.schedules import crontab

from onebeat.beat_import import _celery_fields, repeated_time_note

ZONE = "Europe/Berlin"
APP = Celery("dst_equivalence", set_as_current=False)
APP.conf.timezone = ZONE
NIGHT_START = datetime(2026, 10, 24, 22, 0, tzinfo=timezone.utc)
NIGHT_END = datetime(2026, 10, 25, 4, 0, tzinfo=timezone.utc)


def celery_beat_fires(spec, start=NIGHT_START, end=NIGHT_END):
    """The minutes celery beat runs the crontab in [start, end), beat started an hour before."""
    clock = [start - timedelta(hours=1)]
    sched = crontab(app=APP, nowfun=lambda: clock[0].astimezone(APP.timezone), **spec)
    last, fired = clock[0].astimezone(APP.timezone), set()
    while clock[0] < end:
        due, remaining = sched.is_due(last)
        if due:
            fired.add(clock[0].replace(second=0, microsecond=0))
            last = clock[0].astimezone(APP.timezone)
        clock[0] += timedelta(seconds=max(1, min(remaining, 300)))
    return {t for t in fired if t >= start}


def onebeat_fires(spec, start=NIGHT_START, end=NIGHT_END):
    minute, hour, dom, month, dow = _celery_fields(crontab(**spec))
    elapsed = len(minute) == 60 or len(hour) == 24
    tz, fired, t = ZoneInfo(ZONE), set(), start
    while t < end:
        local = t.astimezone(tz)
        if (local.minute in minute and local.hour in hour and local.day in dom and local.month in month
                and local.isoweekday() % 7 in dow and (elapsed or local.fold == 0)):
            fired.add(t)
        t += timedelta(minutes=1)
    return fired


def extra_runs_in_note(note):
    return int(re.search(r"onebeat makes (\d+) runs? there", note).group(1)) if note else 0


@pytest.mark.parametrize("spec", [
    dict(minute="*"),                 # every minute: 60 runs in the repeated hour that celery beat never made
    dict(minute=0),                   # hourly: the second 02:00
    dict(minute="*/15"),
    dict(minute="*", hour=2),
    dict(minute=30, hour=2),          # not elapsed time: overlap=first, as celery beat
    dict(minute="*", hour=5),         # elapsed time, but 05:00 is not repeated
    dict(minute="*", day_of_week="mon"),  # the clocks go back on a Sunday
])
def test_the_note_counts_the_runs_onebeat_adds_to_celery_beats_on_the_fall_back_night(spec):
    celery, onebeat = celery_beat_fires(spec), onebeat_fires(spec)
    assert celery <= onebeat, sorted(celery - onebeat)
    note = repeated_time_note(_celery_fields(crontab(**spec)), ZONE)
    assert len(onebeat - celery) == extra_runs_in_note(note), note
    if onebeat - celery:
        assert "On 25 October 2026 Europe/Berlin shows 02:00-02:59 twice" in note


def test_every_minute_in_berlin_is_imported_with_a_note_naming_the_job_and_the_extra_runs(importer, tmp_path):
    (tmp_path / "dst_app.py").write_text(
        "from celery import Celery\nfrom celery.schedules import crontab\n"
        "app = Celery('dst')\napp.conf.timezone = 'Europe/Berlin'\n"
        "app.conf.beat_schedule = {\n"
        "    'every-minute': {'task': 't.tick', 'schedule': crontab(), 'options': {'queue': 'q'}},\n"
        "    'nightly': {'task': 't.nightly', 'schedule': crontab(minute=30, hour=2), 'options': {'queue': 'q'}},\n"
        "}\n")
    done = importer("dst_app:app", cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    every_minute = lines.index("    # beat entry 'every-minute'")
    nightly = lines.index("    # beat entry 'nightly'")
    notes = [line for line in lines[every_minute:nightly] if "daylight saving" in line]
    assert len(notes) == 1 and "onebeat makes 60 runs there that celery beat never made" in notes[0]
    assert not any("daylight saving" in line for line in lines[nightly:])
    assert "NOTE 'every-minute': daylight saving: onebeat runs this cron on elapsed time" in done.stderr
    jobs = yaml.safe_load(done.stdout)["onebeat"]["jobs"]
    assert [job["cron"] for job in jobs] == ["* * * * *", "30 2 * * *"]
