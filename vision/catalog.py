"""What can lie in the tray: every die kind with its faces, and the gem colours.

The face keys are the values a :class:`vision.result.ObjectRead` carries (ints for numeric
dice, French keys for the symbol dice and the gems). Faces repeated on a die (the trial
die has combat on three faces) are listed once here; :data:`FACE_COUNTS` says how many
faces show each symbol.
"""

from __future__ import annotations

__all__ = ["FACES", "FACE_COUNTS", "GEM_COLOURS", "DIE_KINDS", "CLASSES", "NUMERAL_FACES", "numeral_kinds_of",
           "parse_face"]

FACES: dict[str, tuple[int | str, ...]] = {
    "d6": (1, 2, 3, 4, 5, 6),
    "d4": (1, 2, 3, 4),
    "d10": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    "d12": tuple(range(1, 13)),
    "lieu": ("montagne", "ville", "temple", "auberge", "foret", "etang"),
    "adversaire": ("mandarin", "soldats", "bandits", "animal", "paysans", "nature"),
    "epreuve": ("combat", "esprit", "magie"),
    "recompense": ("banquet", "gourde", "taels", "frere"),
    "sentence": ("voyage", "taels", "bagne", "blessure"),
    "gem": ("printemps", "ete", "automne", "hiver", "temps", "rupture"),
}

#: How many faces of the physical die show each symbol (all 1 unless listed).
FACE_COUNTS: dict[str, dict[int | str, int]] = {
    "epreuve": {"combat": 3, "esprit": 2, "magie": 1},
    "recompense": {"banquet": 2, "gourde": 2, "taels": 1, "frere": 1},
    "sentence": {"voyage": 2, "taels": 1, "bagne": 1, "blessure": 2},
}

GEM_COLOURS: tuple[str, ...] = tuple(str(f) for f in FACES["gem"])
#: The clear gem: no colour of its own (it shows the floor through it).
CLEAR_GEM = "temps"
DIE_KINDS: tuple[str, ...] = tuple(k for k in FACES if k != "gem")

#: Every (kind, face) class a reader may answer, in a fixed order.
CLASSES: tuple[tuple[str, int | str], ...] = tuple((k, f) for k, faces in FACES.items() for f in faces)

#: The numeral dice the numeral networks read (:mod:`vision.numerals`), with their faces:
#: those of :data:`FACES` and the d8 and d20, which only the networks read. They are not
#: in :data:`FACES`: that is what the players enroll and the synthetic enrollment,
#: the scene renderer and the tray wizard go through, and none of those draws a d8 or
#: a d20 yet. ``d6`` here is a d6 printed with numerals (the pip d6 is read by
#: :mod:`vision.pips`).
NUMERAL_FACES: dict[str, tuple[int, ...]] = {
    "d4": tuple(range(1, 5)),
    "d6": tuple(range(1, 7)),
    "d8": tuple(range(1, 9)),
    "d10": tuple(range(1, 11)),
    "d12": tuple(range(1, 13)),
    "d20": tuple(range(1, 21)),
}


def numeral_kinds_of(value: int, kinds: "tuple[str, ...] | list[str] | set[str] | frozenset[str]") -> list[str]:
    """The numeral die kinds among ``kinds`` that show ``value``, in :data:`NUMERAL_FACES` order.

    >>> numeral_kinds_of(7, {"d12", "d10", "d6"})
    ['d10', 'd12']
    >>> numeral_kinds_of(17, {"d12"})
    []
    """
    return [k for k, faces in NUMERAL_FACES.items() if k in kinds and value in faces]


def parse_face(kind: str, face: str | int) -> int | str:
    """The canonical face value for ``kind`` from user text (``"10"`` -> 10, ``"Forêt"`` -> ``"foret"``).

    Raises ``ValueError`` naming the valid faces when ``face`` is not one of them.
    """
    if kind not in FACES:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(FACES)}")
    faces = FACES[kind]
    text = str(face).strip().lower()
    for a, b in (("ê", "e"), ("é", "e"), ("è", "e"), ("ô", "o"), ("û", "u")):
        text = text.replace(a, b)
    if isinstance(faces[0], int):
        if kind == "d10" and text == "0":
            return 10
        try:
            value: int | str = int(text)
        except ValueError:
            value = text
    else:
        value = text
    if value not in faces:
        raise ValueError(f"{face!r} is not a face of {kind}; faces: {', '.join(str(f) for f in faces)}")
    return value
