"""Checks on what a client sends, before anything reaches the rules or the log.

Pure functions on JSON values; each refusal is a :class:`BadInput` (a
:class:`~companion.errors.CompanionError`) carrying a French and an English message, so
the views answer 400 with it. What is refused anywhere in a body:

- JSON that is not strict: ``NaN``, ``Infinity``, numbers too large for a float
  (``1e999``), nesting deeper than :data:`MAX_DEPTH`;
- integers beyond ±2^53 (what the tablet's JavaScript can hold exactly);
- text that is not valid Unicode (lone surrogates), control characters (tab and newline
  allowed in free text only) and bidirectional overrides (U+202A-U+202E, U+2066-U+2069),
  which make a name display as something else;
- names (:data:`NAME_KEYS`) longer than :data:`MAX_NAME` characters, other text longer
  than :data:`MAX_TEXT`.

>>> check_json({"name": "Aïcha"})
{'name': 'Aïcha'}
>>> check_json({"name": "x" * 81})
Traceback (most recent call last):
...
web.validate.BadInput: 'name' is too long: 81 characters (at most 80)
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from companion.errors import CompanionError

__all__ = ["BadInput", "parse_json", "check_json", "check_client_id", "int_arg", "MAX_NAME", "MAX_TEXT",
           "MAX_DEPTH", "NAME_KEYS"]

MAX_DEPTH = 32
MAX_NAME = 80
MAX_TEXT = 4000
MAX_INT = 2 ** 53
#: Keys whose text is a name shown on every tablet.
NAME_KEYS = frozenset({"name", "rename", "who", "by", "character", "player", "title", "label"})

_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BAD_NAME_CHARS = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_BIDI}\u2028\u2029]")
_BAD_TEXT_CHARS = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{_BIDI}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class BadInput(CompanionError):
    """A request the companion refuses; ``text`` holds the French and English message."""

    def __init__(self, en: str, fr: str | None = None) -> None:
        super().__init__(en)
        self.text = {"fr": fr or en, "en": en}


def _reject_constant(name: str) -> Any:
    raise BadInput(f"{name} is not a number the companion accepts", f"{name} n'est pas un nombre accepté")


def parse_json(raw: bytes) -> Any:
    """Decode a request body as strict JSON (UTF-8), then :func:`check_json` it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("the body is not UTF-8 text", "Le corps de la requête n'est pas du texte UTF-8.") from None
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise BadInput("the JSON is nested too deeply", "JSON trop imbriqué.") from None
    except BadInput:
        raise
    except ValueError as exc:
        raise BadInput(f"the body is not valid JSON ({exc})", "Le corps de la requête n'est pas du JSON valide.") from None
    return check_json(value)


def check_json(value: Any, key: str | None = None, depth: int = 0) -> Any:
    """Return ``value`` unchanged if every part of it is acceptable; else raise BadInput."""
    if depth > MAX_DEPTH:
        raise BadInput("the JSON is nested too deeply", "JSON trop imbriqué.")
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise BadInput("object keys must be text", "Les clés doivent être du texte.")
            _check_text(k, None, is_key=True)
            check_json(v, k, depth + 1)
    elif isinstance(value, list):
        for v in value:
            check_json(v, key, depth + 1)
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int):
        if abs(value) > MAX_INT:
            where = f"'{key}'" if key else "a number"
            raise BadInput(f"{where} is out of range ({_short(value)})", f"{where} est hors limites.")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise BadInput("numbers must be finite", "Les nombres doivent être finis.")
    elif isinstance(value, str):
        _check_text(value, key)
    return value


def _short(n: int) -> str:
    s = str(n) if n.bit_length() < 200 else f"{'-' if n < 0 else ''}a {len(str(abs(n)))}-digit number"
    return s if len(s) < 40 else s[:20] + "…"


def _check_text(s: str, key: str | None, is_key: bool = False) -> None:
    where = f"'{key}'" if key else ("a key" if is_key else "a text")
    if _SURROGATE.search(s):
        raise BadInput(f"{where} is not valid Unicode text (lone surrogate)",
                       f"{where} n'est pas du texte Unicode valide.")
    is_name = is_key or (key in NAME_KEYS)
    limit = MAX_NAME if is_name else MAX_TEXT
    if len(s) > limit:
        raise BadInput(f"{where} is too long: {len(s)} characters (at most {limit})",
                       f"{where} est trop long : {len(s)} caractères (au plus {limit}).")
    bad = (_BAD_NAME_CHARS if is_name else _BAD_TEXT_CHARS).search(s)
    if bad:
        code = f"U+{ord(bad.group()):04X}"
        raise BadInput(f"{where} contains a control or direction character ({code})",
                       f"{where} contient un caractère de contrôle ou de direction ({code}).")


def check_client_id(value: Any) -> str:
    """A post's client event id: 8 to 64 letters, digits, ``-`` or ``_``."""
    if not isinstance(value, str) or not _CLIENT_ID.match(value):
        raise BadInput("'id' must be 8 to 64 letters, digits, '-' or '_'",
                       "« id » doit faire 8 à 64 lettres, chiffres, « - » ou « _ ».")
    return value


def int_arg(raw: str | None, name: str, default: int, lo: int, hi: int) -> int:
    """A whole number from a query string, within ``lo..hi``."""
    if raw is None or raw == "":
        return default
    try:
        n = int(raw)
    except ValueError:
        raise BadInput(f"'{name}' must be a whole number", f"« {name} » doit être un nombre entier.") from None
    if not lo <= n <= hi:
        raise BadInput(f"'{name}' must be between {lo} and {hi}", f"« {name} » doit être entre {lo} et {hi}.")
    return n


def request_json(raw: bytes, allow_empty: bool = True) -> dict[str, Any]:
    """A request body that must be a JSON object (empty -> ``{}`` when allowed)."""
    if not raw.strip():
        if allow_empty:
            return {}
        raise BadInput("the body is empty: send a JSON object", "Corps de requête vide : envoyez un objet JSON.")
    value = parse_json(raw)
    if not isinstance(value, dict):
        raise BadInput(f"the body must be a JSON object, not {_json_type(value)}",
                       f"Le corps de la requête doit être un objet JSON, pas {_json_type(value)}.")
    return value


def as_int(value: Any, name: str, lo: int = -MAX_INT, hi: int = MAX_INT) -> int:
    """A whole number given in JSON (``3``, ``3.0`` or ``"3"``), within ``lo..hi``."""
    n: int | None = None
    if isinstance(value, bool):
        n = None
    elif isinstance(value, int):
        n = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        n = int(value)
    elif isinstance(value, str) and re.fullmatch(r"-?\d{1,16}", value.strip()):
        n = int(value)
    if n is None:
        raise BadInput(f"'{name}' must be a whole number", f"« {name} » doit être un nombre entier.")
    if not lo <= n <= hi:
        raise BadInput(f"'{name}' must be between {lo} and {hi}", f"« {name} » doit être entre {lo} et {hi}.")
    return n


def _json_type(value: Any) -> str:
    return {list: "a list", str: "text", int: "a number", float: "a number", bool: "true/false",
            type(None): "null"}.get(type(value), type(value).__name__)
