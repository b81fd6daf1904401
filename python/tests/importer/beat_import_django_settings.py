"""Django settings for the importer's django-celery-beat test: SQLite in the file BEAT_IMPORT_DB names."""

import os

SECRET_KEY = "beat-import-tests"
INSTALLED_APPS = ["django_celery_beat"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["BEAT_IMPORT_DB"]}}
USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
CELERY_TASK_DEFAULT_QUEUE = "work"
