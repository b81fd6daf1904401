"""The importer's tests: run the real CLI (``python3 -m onebeat.beat_import``) as a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PYTHON_DIR = HERE.parent.parent  # python/, where the onebeat package lives

if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))


def run_importer(*args, env=None, cwd=None):
    """Runs the importer CLI with this folder on PYTHONPATH; returns the CompletedProcess."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join([str(HERE), str(PYTHON_DIR)] + (
        [full_env["PYTHONPATH"]] if full_env.get("PYTHONPATH") else []))
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "onebeat.beat_import", *args], cwd=cwd or PYTHON_DIR,
                          env=full_env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def importer():
    return run_importer
