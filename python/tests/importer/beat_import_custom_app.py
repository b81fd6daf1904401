"""A Celery app whose entries the importer refuses or trims by values without a repr of their own.

Object addresses (``<... object at 0x7f...>``) change from one process to the next, and so does the
order of a set of strings (hash randomisation): the importer's output must hold neither.
"""
from celery import Celery
from celery.schedules import crontab

app = Celery("beat_import_custom_app", broker="memory://")
app.conf.timezone = "UTC"


class Lunar:
    """A schedule class of the app's own, with the default object repr."""

    def __init__(self):
        self.phase = "full"
        self.every_days = 29.5
        self.hemispheres = {"north", "south", "east", "west"}
        self.calendar = Calendar()
        self._cache = object()

    def is_due(self, last_run_at):
        return False, 3600


class Calendar:
    pass


def notify(*args):
    return args


app.conf.beat_schedule = {
    "moon": {"task": "ops.howl", "schedule": Lunar()},
    "object-argument": {"task": "ops.take", "schedule": crontab(minute=0), "args": (Calendar(),)},
    "set-argument": {"task": "ops.take", "schedule": crontab(minute=5), "args": ({"x", "y", "z", "w"},)},
    "callback": {"task": "ops.call", "schedule": crontab(minute=10), "options": {"link": notify}},
}
