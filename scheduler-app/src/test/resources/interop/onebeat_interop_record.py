"""Appends what a worker ran to the file named by ONEBEAT_INTEROP_RECORD, one JSON object a line.

onebeat's interop tests read that file to check which tasks a real worker ran, under which id and
with which arguments. One line is written with a single write call on a file opened for appending,
so a line is never interleaved with another. Values JSON cannot hold are written as their repr.
"""
import json
import os

RECORD_FILE_VARIABLE = "ONEBEAT_INTEROP_RECORD"


def append(entry):
    line = json.dumps(entry, ensure_ascii=False, allow_nan=False, default=repr) + "\n"
    with open(os.environ[RECORD_FILE_VARIABLE], "a", encoding="utf-8") as record:
        record.write(line)
