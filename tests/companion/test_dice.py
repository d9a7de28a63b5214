"""Die kinds as data: the packaged file, validation messages, parsing of values."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from companion.dice import DEFAULT_DICE_PATH, SYMBOL_RESULTS, DiceError, default_dice, dice_from_json, load_dice


def raw() -> dict:
    return json.loads(DEFAULT_DICE_PATH.read_text(encoding="utf-8"))


def test_packaged_dice_faces_per_spec() -> None:
    d = default_dice()
    assert d["lieu"].keys() == SYMBOL_RESULTS["lieu"]
    assert d["adversaire"].keys() == SYMBOL_RESULTS["adversaire"]
    assert d["epreuve"].probability("combat") == Fraction(3, 6)
    assert d["epreuve"].probability("esprit") == Fraction(2, 6)
    assert d["epreuve"].probability("magie") == Fraction(1, 6)
    r, s = d["recompense"], d["sentence"]
    assert [r.probability(k) * 6 for k in ("banquet", "gourde", "taels", "frere")] == [2, 2, 1, 1]
    assert [s.probability(k) * 6 for k in ("voyage", "taels", "bagne", "blessure")] == [2, 1, 1, 2]
    for k in ("lieu", "adversaire", "epreuve", "recompense", "sentence"):
        assert d[k].sides == 6 and d[k].colour in ("blue", "yellow", "red")
    assert [d[k].sides for k in ("d4", "d6", "d10", "d12")] == [4, 6, 10, 12]


def test_parse_values() -> None:
    d = default_dice()
    assert d["lieu"].parse("Forêt") == "foret" and d["lieu"].parse("pond") == "etang"
    assert d["recompense"].parse("Sworn brother") == "frere"
    assert d["d10"].parse(0) == 10 and d["d10"].parse("7") == 7
    for kind, bad in (("d10", 11), ("d6", 0), ("d4", True), ("lieu", "lune"), ("lieu", 3), ("d12", "x")):
        with pytest.raises(DiceError):
            d[kind].parse(bad)


def test_to_json_has_labels() -> None:
    j = default_dice()["sentence"].to_json()
    assert j["results"][0] == {"key": "voyage", "fr": "Pas de voyage", "en": "No travel", "icon": "⛔"}
    assert j["faces"].count("blessure") == 2


@pytest.mark.parametrize(
    "mutate,msg",
    [
        (lambda o: o["kinds"].pop("sentence"), "missing die kind"),
        (lambda o: o["kinds"]["lieu"]["faces"][0].update(key="Montagne"), "lower-case"),
        (lambda o: o["kinds"]["lieu"]["faces"][0].update(key="colline"), "exactly"),
        (lambda o: o["kinds"]["epreuve"]["faces"][0].pop("en"), "'en' label"),
        (lambda o: o["kinds"]["d12"].update(sides=8), "12 sides"),
        (lambda o: o.update(kinds=[]), "non-empty"),
    ],
)
def test_validation_messages(mutate, msg: str) -> None:
    o = copy.deepcopy(raw())
    mutate(o)
    with pytest.raises(DiceError, match=msg):
        dice_from_json(o, "table.json")


def test_table_file_with_other_frequencies(tmp_path: Path) -> None:
    o = raw()
    o["kinds"]["recompense"]["faces"][0] = dict(o["kinds"]["recompense"]["faces"][4])  # taels twice, banquet once
    p = tmp_path / "dice.json"
    p.write_text(json.dumps(o), encoding="utf-8")
    d = load_dice(p)
    assert d["recompense"].probability("taels") == Fraction(2, 6)
    assert d["recompense"].probability("banquet") == Fraction(1, 6)
    with pytest.raises(DiceError, match="cannot read"):
        load_dice(tmp_path / "nope.json")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(DiceError, match="not valid JSON"):
        load_dice(tmp_path / "bad.json")
