"""A Celery app whose beat_schedule has one entry of every schedule and option kind the importer meets.

Used by the importer's tests and by scheduler-app's BeatImportIT (on PYTHONPATH)."""

from datetime import datetime, timedelta, timezone

from celery import Celery
from celery.schedules import crontab, schedule, solar

app = Celery("beat_import_app", broker="memory://")
app.conf.timezone = "Europe/Paris"
app.conf.task_routes = {"reports.tasks.*": {"queue": "reports"}}


class EveryFullMoon:
    """A schedule class of the app's own."""

    def is_due(self, last_run_at):
        return False, 3600

    def __repr__(self):
        return "<EveryFullMoon>"


app.conf.beat_schedule = {
    # crontab forms
    "every-quarter-hour": {"task": "ops.tick", "schedule": crontab(minute="*/15")},
    "weekday-mornings": {"task": "mail.digest", "schedule": crontab(minute=30, hour=7, day_of_week="mon-fri")},
    "sunday-night": {"task": "ops.vacuum", "schedule": crontab(minute=0, hour=23, day_of_week=0)},
    "odd-days": {"task": "ops.rotate", "schedule": crontab(minute="0,30", hour="1-10/2", day_of_month="1-31/2")},
    "quarterly": {"task": "billing.close", "schedule": crontab(minute=0, hour=6, day_of_month=1,
                                                                 month_of_year="1,4,7,10")},
    "weekend-wrap": {"task": "ops.weekend", "schedule": crontab(minute=5, hour="22-23", day_of_week="fri-sun")},
    "first-monday": {"task": "reports.tasks.monthly", "schedule": crontab(minute=0, hour=9, day_of_week=1,
                                                                          day_of_month="1-7")},
    "both-days": {"task": "ops.odd", "schedule": crontab(minute=0, hour=9, day_of_week="mon,fri",
                                                         day_of_month="13")},
    "never": {"task": "ops.never", "schedule": crontab(minute=0, hour=0, day_of_month=31, month_of_year=2)},
    # intervals
    "every-30s-timedelta": {"task": "ops.heartbeat", "schedule": timedelta(seconds=30)},
    "every-90s-number": {"task": "ops.poll", "schedule": 90.0},
    "every-hour-schedule": {"task": "ops.hourly", "schedule": schedule(run_every=timedelta(hours=1)),
                            "relative": True},
    "half-second": {"task": "ops.fast", "schedule": 0.5},
    "fractional": {"task": "ops.frac", "schedule": timedelta(seconds=1, milliseconds=500)},
    # refused kinds
    "sunrise": {"task": "garden.lights", "schedule": solar("sunrise", 48.85, 2.35)},
    "full-moon": {"task": "ops.howl", "schedule": EveryFullMoon()},
    # arguments
    "typed-arguments": {
        "task": "math.add",
        "schedule": crontab(minute=0),
        "args": (2, "2", "true", None, "null", 1.5, "[draft]", "007", "eu-west", "", " 3 ", [1, "2", None],
                 {"a": [True]}, "${HOME}", "it's", "line\nbreak", True, "\u00e9t\u00e9"),
        "kwargs": {"user_id": 42, "Mode": "2", "nested": {"k_1": ["x", 1]}, "none": None, "empty": [],
                   "text": "plain text"},
    },
    # options
    "with-options": {
        "task": "reports.tasks.build",
        "schedule": crontab(minute=0, hour=2),
        "options": {"queue": "reports-high", "expires": 3600, "priority": 9, "exchange": "billing",
                    "routing_key": "billing.close", "headers": {"tenant_id": "acme", "Trace": "on", "retries": "1",
                                                                "count": 3},
                    "countdown": 10, "serializer": "json"},
    },
    "expires-timedelta": {"task": "ops.expiring", "schedule": timedelta(minutes=5),
                          "options": {"expires": timedelta(seconds=1, milliseconds=500)}},
    "expires-datetime": {"task": "ops.until", "schedule": timedelta(minutes=5),
                         "options": {"expires": datetime(2030, 1, 1, tzinfo=timezone.utc)}},
    "routed": {"task": "reports.tasks.nightly", "schedule": crontab(minute=0, hour=3)},
    # names
    "  needs/renaming\t": {"task": "ops.rename", "schedule": crontab(minute=1)},
    "needs-renaming": {"task": "ops.rename2", "schedule": crontab(minute=2)},
    "x" * 200: {"task": "ops.long", "schedule": crontab(minute=3)},
    "\U0001F600" * 76: {"task": "ops.emoji", "schedule": crontab(minute=6)},  # 76 characters, 152 UTF-16 units
    "unknown-key": {"task": "ops.unknown", "schedule": crontab(minute=4), "priority": 3},
}
