"""What onebeat makes of the YAML the importer writes, modelled in Python for the tests: Spring Boot
binding a bracketed map key to the text inside, resolving ``\\${`` to a literal ``${``, and
ConfiguredArguments typing a text that reads as JSON. BeatImportIT checks the same against the real
scheduler."""

import json
import re

NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?\Z")


def spring_text(value):
    if isinstance(value, str):
        return value.replace("\\${", "${")
    return value


def from_text(text):
    t = text.strip()
    if t == "true":
        return True
    if t == "false":
        return False
    if t == "null":
        return None
    structured = (t.startswith("[") and t.endswith("]")) or (t.startswith("{") and t.endswith("}")) or (
        len(t) >= 2 and t.startswith('"') and t.endswith('"'))
    if not structured and not NUMBER.match(t):
        return text
    try:
        return json.loads(t)
    except ValueError:
        return text


def typed(value):
    value = spring_text(value)
    if isinstance(value, str):
        return from_text(value)
    if isinstance(value, list):
        return [typed(v) for v in value]
    if isinstance(value, dict):
        return {unbracket(k): typed(v) for k, v in value.items()}
    return value


def unbracket(key):
    assert key.startswith("[") and key.endswith("]"), f"map key {key!r} is not bracketed"
    return key[1:-1]


def jsonish(value):
    """Python values as JSON gives them back: tuples are lists."""
    return json.loads(json.dumps(value))
