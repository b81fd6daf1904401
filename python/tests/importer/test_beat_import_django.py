"""The importer over django-celery-beat's tables (--django-settings), run as the real CLI."""

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest
import yaml

from conftest import HERE, PYTHON_DIR
from onebeat_typing import typed, unbracket

SEED = r'''
import json, sys
from datetime import datetime, timedelta, timezone
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django_celery_beat.models import (ClockedSchedule, CrontabSchedule, IntervalSchedule, PeriodicTask,
                                       SolarSchedule)
now = datetime.now(timezone.utc)
paris = CrontabSchedule.objects.create(minute="0", hour="7", day_of_week="mon-fri", day_of_month="*",
                                       month_of_year="*", timezone="Europe/Paris")
ny = CrontabSchedule.objects.create(minute="*/20", hour="9-17", day_of_week="*", day_of_month="*",
                                    month_of_year="*", timezone="America/New_York")
both = CrontabSchedule.objects.create(minute="0", hour="9", day_of_week="fri", day_of_month="13",
                                      month_of_year="*", timezone="UTC")
every10s = IntervalSchedule.objects.create(every=10, period=IntervalSchedule.SECONDS)
every2d = IntervalSchedule.objects.create(every=2, period=IntervalSchedule.DAYS)
tiny = IntervalSchedule.objects.create(every=1500, period=IntervalSchedule.MICROSECONDS)
sunset = SolarSchedule.objects.create(event="sunset", latitude=48.85, longitude=2.35)
clocked = ClockedSchedule.objects.create(clocked_time=now + timedelta(days=3))
PeriodicTask.objects.create(name="paris-mornings", task="mail.digest", crontab=paris,
                            args=json.dumps([1, "2", None]), kwargs=json.dumps({"user_id": 7, "flag": "true"}),
                            queue="mail", priority=5, headers=json.dumps({"tenant": "acme"}), expire_seconds=600)
PeriodicTask.objects.create(name="ny-office-hours", task="ops.sync", crontab=ny, exchange="ops",
                            routing_key="ops.sync")
PeriodicTask.objects.create(name="friday-13th", task="ops.luck", crontab=both)
PeriodicTask.objects.create(name="heartbeat", task="ops.heartbeat", interval=every10s)
PeriodicTask.objects.create(name="every-other-day", task="ops.compact", interval=every2d,
                            start_time=now - timedelta(days=1))
PeriodicTask.objects.create(name="too-fast", task="ops.fast", interval=tiny)
PeriodicTask.objects.create(name="sunset-lights", task="garden.lights", solar=sunset)
PeriodicTask.objects.create(name="launch", task="ops.launch", clocked=clocked, one_off=True)
PeriodicTask.objects.create(name="paused", task="ops.paused", interval=every10s, enabled=False)
PeriodicTask.objects.create(name="one-off", task="ops.once", interval=every10s, one_off=True)
PeriodicTask.objects.create(name="later", task="ops.later", interval=every10s, start_time=now + timedelta(days=30))
PeriodicTask.objects.create(name="until-2031", task="ops.until", interval=every10s,
                            expires=datetime(2031, 1, 1, tzinfo=timezone.utc))
'''


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    db = tmp_path_factory.mktemp("django-celery-beat") / "beat.sqlite3"
    env = dict(os.environ, BEAT_IMPORT_DB=str(db), DJANGO_SETTINGS_MODULE="beat_import_django_settings",
               PYTHONPATH=os.pathsep.join([str(HERE), str(PYTHON_DIR)]))
    seeded = subprocess.run([sys.executable, "-c", SEED], env=env, capture_output=True, text=True, timeout=300)
    assert seeded.returncode == 0, seeded.stderr
    return db


@pytest.fixture(scope="module")
def imported(database):
    from conftest import run_importer
    done = run_importer("--django-settings", "beat_import_django_settings", env={"BEAT_IMPORT_DB": str(database)})
    assert done.returncode == 0, done.stderr
    return done, {job["name"]: job for job in yaml.safe_load(done.stdout)["onebeat"]["jobs"]}


def test_crontab_rows_keep_their_own_zone(imported):
    _, jobs = imported
    assert jobs["paris-mornings"]["cron"] == "0 7 * * MON-FRI"
    assert jobs["paris-mornings"]["zone"] == "Europe/Paris"
    assert jobs["ny-office-hours"]["cron"] == "*/20 9-17 * * *"
    assert jobs["ny-office-hours"]["zone"] == "America/New_York"


def test_row_options_arguments_and_default_queue(imported):
    _, jobs = imported
    job = jobs["paris-mornings"]
    assert job["queue"] == "mail"
    assert typed(job["args"]) == [1, "2", None]
    assert typed(job["kwargs"]) == {"user_id": 7, "flag": "true"}
    assert job["options"]["priority"] == 5
    assert job["options"]["expires"] == "10m"
    assert {unbracket(k): v for k, v in job["options"]["headers"].items()} == {"tenant": "acme"}
    ny = jobs["ny-office-hours"]
    assert ny["options"] == {"exchange": "ops", "routing-key": "ops.sync"}
    assert ny["queue"] == "work"  # CELERY_TASK_DEFAULT_QUEUE, as Celery would send it


def test_interval_rows_become_every(imported):
    done, jobs = imported
    assert jobs["heartbeat"]["every"] == "10s"
    assert jobs["every-other-day"]["every"] == "2d"
    assert "aligned to the Unix epoch" in done.stderr
    assert "start_time=" in done.stderr and "has passed; not carried over" in done.stderr


def test_a_start_time_to_come_and_an_end_become_the_jobs_active_period(imported):
    done, jobs = imported
    later = jobs["later"]["active-from"]
    assert later.endswith("Z") and later > "2026"
    assert jobs["until-2031"]["active-until"].startswith("2031-")
    assert "active-from" not in jobs["heartbeat"]


@pytest.mark.parametrize("name, reason", [
    ("friday-13th", "are both restricted"),
    ("too-fast", "not a whole number of seconds"),
    ("sunset-lights", "solar schedule 'sunset'"),
    ("launch", "one_off=True"),
    ("one-off", "one_off=True"),
])
def test_refused_rows_are_listed(imported, name, reason):
    done, jobs = imported
    assert name not in jobs
    assert any(line.startswith(f"  REFUSED {name!r}: ") and reason in line for line in done.stderr.splitlines())
    assert any(line.startswith(f"#   - {name!r}: ") and reason in line for line in done.stdout.splitlines())


def test_disabled_rows_are_skipped_and_listed(imported):
    done, jobs = imported
    assert "paused" not in jobs
    assert "SKIPPED 'paused': disabled" in done.stderr
    assert "#   - 'paused': disabled" in done.stdout


def test_every_row_is_accounted_for(imported):
    done, jobs = imported
    assert sorted(jobs) == ["every-other-day", "heartbeat", "later", "ny-office-hours", "paris-mornings",
                            "until-2031"]
    assert "6 job(s) imported, 5 entr(y/ies) refused, 1 skipped" in done.stderr


def test_a_clocked_row_alone_is_refused_as_clocked(database):
    from conftest import run_importer
    env = dict(os.environ, BEAT_IMPORT_DB=str(database), DJANGO_SETTINGS_MODULE="beat_import_django_settings",
               PYTHONPATH=os.pathsep.join([str(HERE), str(PYTHON_DIR)]))
    # a clocked row without one_off (django-celery-beat's admin refuses it, the table does not)
    subprocess.run([sys.executable, "-c",
                    "import django; django.setup()\n"
                    "from django_celery_beat.models import ClockedSchedule, PeriodicTask\n"
                    "PeriodicTask.objects.create(name='clocked-only', task='ops.at', one_off=True, "
                    "clocked=ClockedSchedule.objects.first())\n"
                    "PeriodicTask.objects.filter(name='clocked-only').update(one_off=False)"], env=env, check=True, timeout=120)
    try:
        done = run_importer("--django-settings", "beat_import_django_settings", "--strict",
                            env={"BEAT_IMPORT_DB": str(database)})
        assert done.returncode == 2
        assert "REFUSED 'clocked-only': clocked schedule at" in done.stderr
    finally:
        subprocess.run([sys.executable, "-c",
                        "import django; django.setup()\n"
                        "from django_celery_beat.models import PeriodicTask\n"
                        "PeriodicTask.objects.filter(name='clocked-only').delete()"], env=env, check=True, timeout=120)


def test_unreadable_database_is_a_real_error(tmp_path):
    from conftest import run_importer
    done = run_importer("--django-settings", "beat_import_django_settings",
                        env={"BEAT_IMPORT_DB": str(tmp_path / "missing" / "no.sqlite3")})
    assert done.returncode == 1
    assert "cannot read django-celery-beat's schedules" in done.stderr
