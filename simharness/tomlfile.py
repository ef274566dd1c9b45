"""Reading the harness's TOML files (experiment configs, strategy scripts) with errors that name the
file, the line or the field, and what was expected."""

from __future__ import annotations

import difflib
import json
import math
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from simharness.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib


def load(path: Path, text: str | None = None) -> dict[str, Any]:
    """The TOML document at ``path`` (or ``text``, the document to be written there); a syntax error
    names the file and the line."""
    try:
        if text is None:
            text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("file not found", file=path) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot be read: {e}", file=path) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # tomllib's message already says "(at line L, column C)"
        raise ConfigError(f"invalid TOML: {e}", file=path) from None


def value_of(text: str) -> Any:
    """One TOML value written as text (``false``, ``500``, ``"none"``); ValueError when it is none."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError as e:
        raise ValueError(str(e)) from None


def key(k: str) -> str:
    """A TOML key: bare where TOML allows, else quoted."""
    return k if k and all(c.isalnum() or c in "_-" for c in k) and k.isascii() else json.dumps(k)


def value(v: Any) -> str:
    """A TOML value (strings, numbers, booleans, lists, inline tables); None is an option's "none"."""
    if v is None:
        return '"none"'
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML form for {v!r}")


def dumps(data: dict[str, Any], prefix: str = "") -> str:
    """A TOML document of ``data``: its scalars and lists, then each table under its header (a
    table of tables alone, as ``[variants]``, gets none of its own)."""
    plain = "\n".join(f"{key(k)} = {value(v)}" for k, v in data.items() if not isinstance(v, dict))
    header = f"[{prefix[:-1]}]" if prefix and (plain or not data) else ""
    parts = ["\n".join(p for p in (header, plain) if p)]
    parts += [dumps(v, f"{prefix}{key(k)}.").rstrip("\n") for k, v in data.items() if isinstance(v, dict)]
    return "\n\n".join(p for p in parts if p) + "\n"


def field_path(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def validate(model: type[BaseModel], data: dict[str, Any], path: Path) -> Any:
    """``data`` as ``model``; the first error names the field in ``path`` and what was expected."""
    bad = _non_finite(data, ())
    if bad is not None:
        loc, value = bad
        raise ConfigError(f"expected a finite number, got {value}", file=path, field=field_path(loc))
    try:
        return model.model_validate(data)
    except ValidationError as e:
        # A misspelt key also makes the real key "missing": report the misspelling, it is the cause.
        errors = sorted(e.errors(), key=lambda x: x["type"] != "extra_forbidden")
        err = errors[0]
        loc = tuple(err["loc"])
        field = field_path(loc)
        if err["type"] == "extra_forbidden":
            parent = _model_at(model, loc[:-1])
            known = list(parent.model_fields) if parent else []
            close = difflib.get_close_matches(str(loc[-1]), known, n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            message = f"unknown key{hint}; expected one of: {', '.join(known)}"
        elif err["type"] == "string_pattern_mismatch":  # names that become directory names
            got = err["input"]
            message = f"expected letters, digits and _ . + - (starting with a letter or digit), got {got!r}"
        elif err["type"] == "missing":
            message = "required but missing"
        elif err["type"] in _BOUNDS:
            message = _bound_message(err["type"], next(iter(err["ctx"].values())), err["input"])
        else:
            message = f"{err['msg']}, got {err['input']!r}" if "input" in err else err["msg"]
        # The key a misspelling was meant to be is "missing" only because of it: not another error.
        extra = [str(x["loc"][-1]) for x in errors if x["type"] == "extra_forbidden" and x["loc"]]
        more = sum(
            1
            for x in errors[1:]
            if not (
                x["type"] == "missing" and x["loc"] and difflib.get_close_matches(str(x["loc"][-1]), extra)
            )
        )
        if more:
            message += f" (and {more} more error{'s' if more > 1 else ''})"
        raise ConfigError(message, file=path, field=field) from None


_BOUNDS = {
    "greater_than": "greater than",
    "greater_than_equal": "of at least",
    "less_than": "less than",
    "less_than_equal": "of at most",
}


def _bound_message(kind: str, bound: Any, got: Any) -> str:
    """What a bounded field expected, in the words of the other messages (pydantic says "Input should
    be greater than 0"); the counts of a config (games, shard_size, look_every) are bounded at zero."""
    if isinstance(got, int) and bound == 0 and kind == "greater_than":
        return f"expected a positive integer, got {got}"
    if isinstance(got, int) and bound == 0 and kind == "greater_than_equal":
        return f"expected a non-negative integer, got {got}"
    return f"expected a number {_BOUNDS[kind]} {bound}, got {got!r}"


def _non_finite(value: Any, loc: tuple[str | int, ...]) -> tuple[tuple[str | int, ...], float] | None:
    """The first NaN or infinity in ``value`` (TOML spells them ``nan`` and ``inf``) and where it is.
    No number of a config means anything at either: a test bound at infinity decides at the first
    look and one at NaN never does, and neither survives the JSON the engine and the manifest take."""
    if isinstance(value, float) and not math.isfinite(value):
        return loc, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _non_finite(item, (*loc, key))
        if found is not None:
            return found
    return None


def _model_at(model: type[BaseModel], loc: tuple[str | int, ...]) -> type[BaseModel] | None:
    """The sub-model that ``loc`` points into, for listing its keys."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        field = current.model_fields.get(part) if current is not None else None
        if field is None:
            return None
        current = _first_model(field.annotation)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _first_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _first_model(arg)
        if found is not None:
            return found
    return None
