"""One options mechanism for every game: a frozen dataclass whose fields are the options.

A game states each option once, as a field of its ``Options`` dataclass::

    @dataclass(frozen=True)
    class Options:
        pool_cap: int = option(10, decision="D2", lo=1, hi=30,
                               fr="Dés au plus dans une réserve", en="Most dice in a pool")

The field's default is the option's default; its metadata (an :class:`OptionSpec`) says
which decision of the rules it records, its allowed values and its label in both
languages. From that one class come:

- :func:`default_options` — the defaults as JSON values (``Game.default_options()``);
- :func:`parse_options` — the validated, typed options (``Game.new_state``), which refuses
  an unknown option or a bad value with an :class:`~companion.errors.EventError` that
  names it;
- :func:`option_specs` — what the tablet's set-up form and the game's documentation show.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo:
...     mode: str = option("add", decision="D3", choices=("add", "replace"), fr="Mode", en="Mode")
...     cap: int = option(4, decision="R18", lo=0, hi=10, fr="Plafond", en="Cap")
>>> default_options(Demo)
{'mode': 'add', 'cap': 4}
>>> parse_options(Demo, {"cap": 5}, "demo")
Demo(mode='add', cap=5)
>>> parse_options(Demo, {"cap": 11}, "demo")
Traceback (most recent call last):
...
companion.errors.EventError: l'option cap (R18) doit être un nombre entier de 0 à 10, pas 11 / option cap (R18) must be a whole number from 0 to 10, not 11
>>> [s.kind for s in option_specs(Demo)]
['enum', 'int']
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from .refusal import malformed

__all__ = ["OptionSpec", "option", "option_specs", "default_options", "parse_options", "option_form", "choice_words"]

T = TypeVar("T")

#: Why a value is refused, in French and in English.
Problem = tuple[str, str]
#: A check for a ``data`` option: returns why the value is refused ``(fr, en)``, or ``None``.
Check = Callable[[Any], "Problem | None"]


@dataclass(frozen=True)
class OptionSpec:
    """What one option is: its name, the rules' decision it records, its default, the
    values it may take and its label in both languages.

    ``kind`` is ``"enum"`` (one of ``choices``), ``"bool"``, ``"int"`` (whole number in
    ``lo..hi``), ``"float"`` (number in ``lo..hi``) or ``"data"`` (any JSON value, checked
    by ``check`` if given, by the game otherwise).
    """

    name: str
    decision: str
    default: Any
    choices: tuple[Any, ...] | None
    kind: str
    fr: str
    en: str
    lo: float | None = None
    hi: float | None = None
    check: Check | None = None
    #: Each choice in words, ``((fr, en), ...)`` in the order of ``choices``; when not
    #: given, the words are read from the label (see :func:`choice_words`).
    choice_labels: tuple[tuple[str, str], ...] | None = None

    def problem(self, value: Any) -> Problem | None:
        """Why ``value`` is not allowed for this option ``(fr, en)``, or ``None`` when it is."""
        tag = f" ({self.decision})" if self.decision else ""
        fr_where, where = f"l'option {self.name}{tag}", f"option {self.name}{tag}"
        if self.kind == "enum":
            if not any(value == c and type(value) is type(c) for c in self.choices or ()):
                return (f"{fr_where} doit être l'une des valeurs {', '.join(map(str, self.choices or ()))}, pas {value!r}",
                        f"{where} must be one of {', '.join(map(str, self.choices or ()))}, not {value!r}")
        elif self.kind == "bool":
            if not isinstance(value, bool):
                return f"{fr_where} doit valoir true ou false, pas {value!r}", f"{where} must be true or false, not {value!r}"
        elif self.kind in ("int", "float"):
            return self._number_problem(fr_where, where, value)
        elif self.check is not None:
            return self.check(value)
        return None

    def _number_problem(self, fr_where: str, where: str, value: Any) -> Problem | None:
        whole = self.kind == "int"
        ok_type = isinstance(value, int) if whole else isinstance(value, (int, float))
        bad = not ok_type or isinstance(value, bool) or value != value  # NaN is never a value
        if bad or (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            fr_what, what = ("un nombre entier", "a whole number") if whole else ("un nombre", "a number")
            fr_range, en_range = self._range_text()
            return (f"{fr_where} doit être {fr_what}{fr_range}, pas {value!r}",
                    f"{where} must be {what}{en_range}, not {value!r}")
        return None

    def _range_text(self) -> tuple[str, str]:
        def show(x: float, lang: str) -> str:
            text = str(int(x)) if float(x).is_integer() else str(x)
            return text.replace(".", ",") if lang == "fr" else text

        if self.lo is not None and self.hi is not None:
            return f" de {show(self.lo, 'fr')} à {show(self.hi, 'fr')}", f" from {show(self.lo, 'en')} to {show(self.hi, 'en')}"
        if self.lo is not None:
            return f" d'au moins {show(self.lo, 'fr')}", f" of at least {show(self.lo, 'en')}"
        if self.hi is not None:
            return f" d'au plus {show(self.hi, 'fr')}", f" of at most {show(self.hi, 'en')}"
        return "", ""


def option(default: Any, *, decision: str = "", fr: str, en: str, choices: tuple[Any, ...] | None = None,
           lo: float | None = None, hi: float | None = None, kind: str | None = None,
           check: Check | None = None, choice_labels: tuple[tuple[str, str], ...] | None = None) -> Any:
    """A dataclass field that is an option (see the module's docstring).

    ``kind`` is guessed when not given: ``enum`` with ``choices``, else ``bool``, ``int``
    or ``float`` from the default's type, else ``data``. A list or dict default is copied
    for each instance (a ``default_factory``).
    """
    if kind is None:
        if choices is not None:
            kind = "enum"
        elif isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int):
            kind = "int"
        elif isinstance(default, float):
            kind = "float"
        else:
            kind = "data"
    spec = OptionSpec("", decision, default, tuple(choices) if choices is not None else None, kind, fr, en, lo, hi, check,
                      tuple(choice_labels) if choice_labels is not None else None)
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=lambda: copy.deepcopy(default), metadata={"option": spec})
    return dataclasses.field(default=default, metadata={"option": spec})


def option_specs(cls: type) -> tuple[OptionSpec, ...]:
    """The options of an ``Options`` dataclass, in the order of its fields."""
    out = []
    for f in dataclasses.fields(cls):
        spec = f.metadata.get("option")
        if isinstance(spec, OptionSpec):
            out.append(dataclasses.replace(spec, name=f.name))
    return tuple(out)


def default_options(cls: type) -> dict[str, Any]:
    """The defaults as JSON values (a fresh copy each time)."""
    return {s.name: copy.deepcopy(s.default) for s in option_specs(cls)}


def parse_options(cls: type[T], raw: Mapping[str, Any], game: str) -> T:
    """The typed options from merged JSON options; :class:`EventError` names the first
    unknown option or bad value and nothing is built."""
    if not isinstance(raw, Mapping):
        raise malformed(f"les options de {game} forment un objet d'options nommées, pas un {type(raw).__name__}",
                        f"options for {game} must be an object of named options, not {type(raw).__name__}")
    specs = {s.name: s for s in option_specs(cls)}
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        names = ", ".join(map(str, unknown))
        raise malformed(f"option(s) inconnue(s) pour {game}\u202f: {names}", f"unknown option(s) for {game}: {names}")
    values: dict[str, Any] = {}
    for name, spec in specs.items():
        value = raw.get(name, spec.default)
        why = spec.problem(value)
        if why:
            fr, en = (why, why) if isinstance(why, str) else why  # a check's text in both languages
            raise malformed(fr, en)
        values[name] = copy.deepcopy(value)
    return cls(**values)


def choice_words(spec: OptionSpec, lang: str) -> list[str] | None:
    """Each choice of an ``enum`` option in words, in ``choices`` order: its
    ``choice_labels``, else the parts of its label after the colon (or the whole label)
    split on "ou"/"or" or commas, when they are as many as the choices; else ``None``.

    >>> s = OptionSpec("mode", "D3", "add", ("add", "replace"), "enum",
    ...                "Valeur du frère : ajoutée, ou à sa place", "Brother's value: added, or instead")
    >>> choice_words(s, "fr"), choice_words(s, "en")
    (['Ajoutée', 'À sa place'], ['Added', 'Instead'])
    """
    choices = spec.choices or ()
    if spec.choice_labels is not None:
        return [fr if lang == "fr" else en for fr, en in spec.choice_labels]
    text = spec.fr if lang == "fr" else spec.en
    after = " : ".join(re.split(r"[\s\u202f]*:\s+", text)[1:])
    for part in (after, text):
        if not part:
            continue
        for sep in (r", ou |, or ", r" ou | or ", r", "):
            words = [w.strip() for w in re.split(sep, part)]
            if len(words) == len(choices) and all(words):
                return [w[:1].upper() + w[1:] for w in words]
    return None


def option_form(cls: type) -> list[dict[str, Any]]:
    """The options a table can set with a tap on the set-up page (a closed set of values,
    a number or yes/no), as JSON: name, kind, default, choices (and each in words), range
    and label."""
    out = []
    for s in option_specs(cls):
        if s.kind not in ("enum", "bool", "int", "float"):
            continue
        words = None
        if s.kind == "enum":
            fr, en = choice_words(s, "fr"), choice_words(s, "en")
            if fr is not None and en is not None:
                words = [{"fr": f, "en": e} for f, e in zip(fr, en)]
        out.append({"name": s.name, "kind": s.kind, "default": s.default,
                    "choices": list(s.choices) if s.choices else None, "choice_labels": words,
                    "lo": s.lo, "hi": s.hi, "decision": s.decision, "label": {"fr": s.fr, "en": s.en}})
    return out
