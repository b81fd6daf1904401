"""The importer over a Celery app with one entry of every schedule and option kind (beat_import_app)."""

import pytest
import yaml

import beat_import_app
from onebeat.beat_import import sanitize_name
from onebeat_typing import jsonish, typed, unbracket


def _import(importer, *extra):
    done = importer("beat_import_app:app", *extra)
    assert done.returncode == 0, done.stderr
    return done, yaml.safe_load(done.stdout)


def _jobs(document):
    return {job["name"]: job for job in document["onebeat"]["jobs"]}


def test_cron_forms_become_unix_cron_in_the_apps_zone(importer):
    _, doc = _import(importer)
    jobs = _jobs(doc)
    expected = {
        "every-quarter-hour": "*/15 * * * *",
        "weekday-mornings": "30 7 * * MON-FRI",
        "sunday-night": "0 23 * * SUN",
        "odd-days": "0,30 1-9/2 */2 * *",
        "quarterly": "0 6 1 */3 *",
        "weekend-wrap": "5 22,23 * * SUN,FRI,SAT",
        "first-monday": "0 0 9 ? * MON#1",  # celery ANDs the day fields: the first Monday, as Quartz says it
        "routed": "0 3 * * *",
        "typed-arguments": "0 * * * *",
        "with-options": "0 2 * * *",
    }
    for name, cron in expected.items():
        assert jobs[name]["cron"] == cron, name
        assert jobs[name]["zone"] == "Europe/Paris", name
        assert "every" not in jobs[name]


def test_intervals_become_every_with_the_epoch_caveat(importer):
    done, doc = _import(importer)
    jobs = _jobs(doc)
    assert jobs["every-30s-timedelta"]["every"] == "30s"
    assert jobs["every-90s-number"]["every"] == "90s"
    assert jobs["every-hour-schedule"]["every"] == "1h"
    assert jobs["expires-timedelta"]["every"] == "5m"
    for name in ("every-30s-timedelta", "every-90s-number", "every-hour-schedule"):
        assert "zone" not in jobs[name] and "cron" not in jobs[name]
    assert "aligned to the Unix epoch" in done.stderr
    assert "# NOTE: every 30s: onebeat's intervals are aligned to the Unix epoch" in done.stdout
    assert "relative=True" in done.stderr


def test_refused_entries_are_named_on_stderr_and_in_the_yaml_never_imported(importer):
    done, doc = _import(importer)
    jobs = _jobs(doc)
    refused = {
        "sunrise": "solar schedule 'sunrise'",
        "full-moon": "schedule class beat_import_app.EveryFullMoon",
        "half-second": "not a whole number of seconds",
        "fractional": "not a whole number of seconds",
        "both-days": "both restricted: celery fires only on days matching both, Unix cron on days matching either",
        "never": "never fires",
    }
    comments = [line for line in done.stdout.splitlines() if line.startswith("#")]
    for name, reason in refused.items():
        assert name not in jobs
        assert any(f"REFUSED {name!r}: " in line and reason in line for line in done.stderr.splitlines()), name
        assert any(f"- {name!r}: " in line and reason in line for line in comments), name
    assert "6 entr(y/ies) refused" in done.stderr
    # every entry is accounted for: imported or refused
    assert len(jobs) + len(refused) == len(beat_import_app.app.conf.beat_schedule)


def test_options_map_to_queue_and_job_options_and_the_rest_is_listed(importer):
    done, doc = _import(importer)
    job = _jobs(doc)["with-options"]
    assert job["queue"] == "reports-high"
    options = job["options"]
    assert options["expires"] == "1h"
    assert options["priority"] == 9
    assert options["exchange"] == "billing"
    assert options["routing-key"] == "billing.close"
    assert {unbracket(k): v for k, v in options["headers"].items()} == {"tenant_id": "acme", "Trace": "on"}
    for listed in ("option countdown=10", "option serializer='json'", "header 'retries': Celery's own header",
                   "header 'count'=3: onebeat's headers are text"):
        assert f"UNSUPPORTED in 'with-options': {listed}" in done.stderr
        assert f"# UNSUPPORTED, not carried over: {listed}" in done.stdout
    jobs = _jobs(doc)
    assert jobs["expires-timedelta"]["options"] == {"expires": "1500ms"}
    assert "options" not in jobs["expires-datetime"]
    assert "UNSUPPORTED in 'expires-datetime': expires=2030-01-01T00:00:00+00:00 is a point in time" in done.stderr
    assert "UNSUPPORTED in 'unknown-key': entry key 'priority'" in done.stderr


def test_queue_comes_from_task_routes_or_celerys_default_queue(importer):
    done, doc = _import(importer)
    jobs = _jobs(doc)
    assert jobs["routed"]["queue"] == "reports"
    assert jobs["first-monday"]["queue"] == "reports"
    assert jobs["every-quarter-hour"]["queue"] == "celery"  # not onebeat's 'default'
    assert "queue 'celery' is Celery's task_default_queue" in done.stderr


def test_arguments_come_back_as_the_python_values_after_onebeats_typing(importer):
    _, doc = _import(importer)
    job = _jobs(doc)["typed-arguments"]
    entry = beat_import_app.app.conf.beat_schedule["typed-arguments"]
    assert typed(job["args"]) == jsonish(list(entry["args"]))
    assert typed(job["kwargs"]) == jsonish(entry["kwargs"])
    # the strings that look like JSON are the ones written with quotes
    assert job["args"][1] == '"2"' and job["args"][2] == '"true"' and job["args"][4] == '"null"'
    assert job["args"][7] == "007" and job["args"][8] == "eu-west"
    assert job["args"][13] == "\\${HOME}"  # Spring would resolve ${HOME} otherwise


def test_names_are_sanitized_unique_and_the_renames_said(importer):
    done, doc = _import(importer)
    jobs = _jobs(doc)
    assert jobs["needs-renaming"]["task"] == "ops.rename"
    assert jobs["needs-renaming-2"]["task"] == "ops.rename2"
    long = [name for name in jobs if name.startswith("xxx")]
    assert len(long) == 1 and len(long[0]) == 150
    assert "renamed from '  needs/renaming\\t': surrounding blanks removed" in done.stderr
    assert "renamed from 'needs-renaming': another entry has that name" in done.stderr
    assert "longer than 150 characters, shortened" in done.stderr


def test_a_name_of_emoji_is_limited_in_utf16_units_as_onebeat_counts_them(importer):
    done, doc = _import(importer)
    emoji = [name for name in _jobs(doc) if name.startswith("\U0001F600")]
    assert len(emoji) == 1
    assert len(emoji[0].encode("utf-16-le")) // 2 <= 150
    assert emoji[0] == "\U0001F600" * 70 + "-" + emoji[0][-8:]
    assert "longer than 150 characters, shortened (counted as onebeat counts them, in UTF-16 units" in done.stderr
    assert "this one had 152)" in done.stderr


@pytest.mark.parametrize("name, kept", [
    ("\U0001F600" * 75, True),             # 150 UTF-16 units: the longest name onebeat takes
    ("a" + "\U0001F600" * 75, False),      # 76 characters but 151 units
    ("\u00e9" * 150, True),                # 150 characters of the BMP, one unit each
    ("a" * 149 + "\U0001F600", False),
], ids=["75-emoji", "a-and-75-emoji", "150-e-acute", "149-a-and-an-emoji"])
def test_names_at_the_limit_count_astral_characters_twice(name, kept):
    sanitized, reasons = sanitize_name(name, set(), 0)
    assert (sanitized == name) is kept
    assert len(sanitized.encode("utf-16-le")) // 2 <= 150
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in sanitized)  # no half of a character
    if not kept:
        assert reasons and reasons[0].startswith("longer than 150 characters, shortened")


def test_output_is_stable(importer):
    first = importer("beat_import_app:app")
    second = importer("beat_import_app:app")
    assert first.stdout == second.stdout


def test_strict_exits_2_on_a_refusal(importer):
    done = importer("beat_import_app:app", "--strict")
    assert done.returncode == 2
    assert done.stdout.startswith("# onebeat jobs imported")


def test_app_forms_like_celery_dash_a(importer):
    # module alone: its attribute app (or celery)
    by_module = importer("beat_import_app")
    assert by_module.returncode == 0, by_module.stderr
    assert by_module.stdout.replace("beat_import_app ", "beat_import_app:app ") == importer("beat_import_app:app").stdout


def test_an_app_that_cannot_load_is_a_real_error(importer):
    done = importer("no_such_module_here:app")
    assert done.returncode == 1
    assert "cannot load the Celery app 'no_such_module_here:app'" in done.stderr
    assert done.stdout == ""
    not_app = importer("beat_import_app:EveryFullMoon")
    assert not_app.returncode == 1 and "not a Celery app" in not_app.stderr


def test_an_app_without_refusals_exits_0_even_strict(importer, tmp_path):
    (tmp_path / "clean_app.py").write_text(
        "from celery import Celery\nfrom celery.schedules import crontab\n"
        "celery = Celery('clean')\n"
        "celery.conf.beat_schedule = {'nightly': {'task': 't.nightly', 'schedule': crontab(minute=0, hour=2),\n"
        "    'options': {'queue': 'q'}}}\n")
    done = importer("clean_app", "--strict", "-o", str(tmp_path / "out.yaml"), cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    doc = yaml.safe_load((tmp_path / "out.yaml").read_text())
    assert doc == {"onebeat": {"jobs": [{"name": "nightly", "cron": "0 2 * * *", "zone": "UTC", "task": "t.nightly",
                                         "queue": "q"}]}}


def test_an_empty_schedule_writes_no_jobs(importer, tmp_path):
    (tmp_path / "empty_app.py").write_text("from celery import Celery\napp = Celery('empty')\n")
    done = importer("empty_app:app", cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert yaml.safe_load(done.stdout) == {"onebeat": {"jobs": []}}


def test_runs_in_separate_processes_write_the_same_bytes_when_they_refuse_objects(importer, tmp_path):
    outputs = []
    for seed in ("1", "2"):  # sets of strings come out in another order under another hash seed
        target = tmp_path / f"jobs-{seed}.yaml"
        done = importer("beat_import_custom_app:app", "-o", str(target), env={"PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        outputs.append((target.read_bytes(), done.stderr))
    assert outputs[0][0] == outputs[1][0]
    assert outputs[0][1] == outputs[1][1]
    text = outputs[0][0].decode("utf-8")
    assert " at 0x" not in text
    assert ("'moon': schedule class beat_import_custom_app.Lunar (attributes: calendar=<beat_import_custom_app.Calendar> "
            "every_days=29.5 hemispheres={'east', 'north', 'south', 'west'} phase='full') has no onebeat equivalent"
            in text)
    assert "'object-argument': args[0]: Calendar <beat_import_custom_app.Calendar> is not a JSON value" in text
    assert "'set-argument': args[0]: set {'w', 'x', 'y', 'z'} is not a JSON value" in text
    assert "option link=<function notify>: onebeat has no such delivery option" in text
