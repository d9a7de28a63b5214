"""The spec's decisions (D1-D19) as named options, with their defaults.

:data:`OPTION_SPECS` is the single source: ``default_options()``, the validation in
``new_state`` and the options table of ``docs/peripeties.md`` all come from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from ...errors import EventError

__all__ = ["OptionSpec", "OPTION_SPECS", "Options", "default_options", "parse_options"]


@dataclass(frozen=True)
class OptionSpec:
    name: str
    decision: str  # "D3", "D5"...
    default: Any
    choices: tuple[Any, ...] | None  # allowed values; None = see ``kind``
    kind: str  # "enum" | "int" | "bool" | "data"
    fr: str
    en: str


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("dice_faces", "D1/D2", None, None, "data",
               "Fichier de dés de la table (même format que data/dice.json) ; null = dés fournis",
               "The table's dice file content (same format as data/dice.json); null = packaged dice"),
    OptionSpec("deck", "1.6", "example", None, "data",
               "Paquet de cartes : \"example\" (valeurs d'exemple), \"none\" (vide) ou le contenu d'un fichier de paquet",
               "Card deck: \"example\" (example values), \"none\" (empty) or a deck file's content"),
    OptionSpec("brother_mode", "D3", "add", ("add", "replace"), "enum",
               "Valeur du frère juré ajoutée à celle du personnage, ou à sa place",
               "Sworn brother's value added to the character's own, or used instead of it"),
    OptionSpec("brothers_per_trial", "D3", 1, None, "int",
               "Nombre de frères jurés utilisables par épreuve",
               "Sworn brothers usable per trial"),
    OptionSpec("location_bonus", "D4", "best", ("best", "cumulative"), "enum",
               "Bonus de lieu de prédilection : un seul (+5 sinon +3) ou cumulés (+5 et +3 par frère)",
               "Favoured-location bonus: one only (+5 else +3) or cumulative (+5 and +3 per brother)"),
    OptionSpec("brother_location", "D4", "any", ("any", "used"), "enum",
               "Le +3 d'un frère : n'importe quel frère, ou seulement le frère utilisé",
               "A brother's +3: any brother, or only the brother whose value is used"),
    OptionSpec("rank_order", "D5", "1_is_highest", ("1_is_highest", "1_is_lowest"), "enum",
               "Sens des rangs : le rang 1 est le plus élevé (tradition des 108 Étoiles) ou le plus bas",
               "Rank direction: rank 1 is the most senior (108 Stars tradition) or the most junior"),
    OptionSpec("equal_rank", "D5", "reject", ("reject", "accept"), "enum",
               "Carte de rang égal : rejetée (défausse) ou acceptée comme frère juré",
               "Card of equal rank: rejected (discarded) or accepted as sworn brother"),
    OptionSpec("empty_pile", "D5", "stop", ("stop", "reshuffle"), "enum",
               "Pioche épuisée : pas de frère juré, ou remélanger la défausse",
               "Draw pile exhausted: no sworn brother, or reshuffle the discard pile"),
    OptionSpec("brother_draw", "D5", "software", ("software", "table"), "enum",
               "Pioche des frères jurés : par le logiciel (pioche mélangée) ou cartes tirées à la table et saisies",
               "Sworn-brother draw: by the software (shuffled pile) or cards drawn at the table and entered"),
    OptionSpec("banquet_token", "D6", "keep", ("keep", "discard_after_travel"), "enum",
               "Jeton banquet : gardé jusqu'à être dépensé pour soigner, ou défaussé après le voyage du tour",
               "Banquet token: kept until spent on a wound, or discarded after that turn's travel"),
    OptionSpec("gourd_timing", "D7", "before", ("before", "after"), "enum",
               "La gourde se déclare avant le jet d'épreuve, ou peut se décider après",
               "The gourd is declared before the trial roll, or may be decided after it"),
    OptionSpec("gourds_per_trial", "D7", 1, None, "int",
               "Gourdes buvables par épreuve de combat",
               "Gourds that may be drunk on one combat trial"),
    OptionSpec("bribe_timing", "D8", "any", ("any", "sentence"), "enum",
               "Corruption : à tout moment en prison, ou seulement à la condamnation",
               "Bribery: any time while in prison, or only when sentenced"),
    OptionSpec("bribe_payer", "D8", "convict", ("convict", "player"), "enum",
               "Qui paie la corruption : le bagnard seul, ou tout personnage du même joueur",
               "Who pays the bribe: the convict only, or any character of the same player"),
    OptionSpec("bribe_rate", "D8", 10, None, "int",
               "Taels par tour de bagne en moins",
               "Taels per prison turn removed"),
    OptionSpec("ask_convict_cell", "D9", True, (True, False), "bool",
               "Demander (facultatif) la case choisie par le joueur suivant pour le bagnard",
               "Ask (optionally) for the cell the next player chooses for the convict"),
    OptionSpec("fine_shortfall", "D10", "fewer", ("fewer", "fewer_or_equal"), "enum",
               "Relance de la sentence si les taels sont strictement inférieurs à l'amende (ou aussi si égaux)",
               "Sentence re-rolled when taels are strictly fewer than the fine (or also when equal)"),
    OptionSpec("death_at", "D11", 0, None, "int",
               "Mort quand le combat effectif tombe à cette valeur ou moins",
               "Death when effective combat falls to this value or below"),
    OptionSpec("xp_at_cap", "D12", "lost", ("lost", "lowest"), "enum",
               "Expérience au plafond : perdue, ou placée sur la caractéristique la plus basse sous le plafond",
               "Experience at a cap: lost, or placed on the lowest characteristic below its cap"),
    OptionSpec("xp_cap_each", "R18", 4, None, "int",
               "Plafond de jetons +1 par caractéristique", "Cap of +1 tokens per characteristic"),
    OptionSpec("xp_cap_total", "R18", 8, None, "int",
               "Plafond de jetons +1 au total", "Cap of +1 tokens in total"),
    OptionSpec("naturals", "D13", "override", ("override", "ignore"), "enum",
               "Le maximum naturel réussit et le 1 naturel échoue toujours (ou pas de règle spéciale)",
               "Natural maximum always succeeds and natural 1 always fails (or no special rule)"),
    OptionSpec("detail_dice", "D14", "one", ("one", "two", "none"), "enum",
               "D6 de détail (facultatif) : un seul lu dans les deux tables, un par table, ou aucun",
               "Detail D6 (optional): one read in both tables, one per table, or none"),
    OptionSpec("next_player", "D15", "next", ("next", "self"), "enum",
               "Qui lance difficulté, récompense et sentence : le joueur suivant, ou le joueur lui-même",
               "Who rolls difficulty, reward and sentence: the next player, or the player themself"),
    OptionSpec("reward_reroll", "D16", "on_read", ("on_read", "on_apply"), "enum",
               "Sixième frère juré : relancer le dé de récompense dès sa lecture, ou à l'application",
               "Six sworn brothers: re-roll the reward die when it is read, or when it is applied"),
    OptionSpec("bagne_brothers", "D17", "hand", ("hand", "discard"), "enum",
               "Au bagne, les frères jurés retournent dans la main du joueur (ou à la défausse)",
               "On penal servitude, sworn brothers go to the player's hand (or the discard pile)"),
    OptionSpec("heal_timing", "D18", "any", ("any", "travel"), "enum",
               "Soigner une blessure avec un banquet : à tout moment, ou pendant la phase de voyage",
               "Healing a wound with a banquet: any time, or during the travel phase"),
    OptionSpec("immobilised_and_prison", "D19", "both", ("both", "immobilised_only"), "enum",
               "Immobilisé et en prison à la fois : défausser les jetons et baisser le D4 (ou seulement défausser)",
               "Immobilised and in prison at once: discard the tokens and lower the D4 (or only discard)"),
)

_INT_RANGES: Mapping[str, tuple[int, int]] = {
    "brothers_per_trial": (0, 1),
    "gourds_per_trial": (0, 99),
    "bribe_rate": (1, 1000),
    "death_at": (-100, 100),
    "xp_cap_each": (0, 100),
    "xp_cap_total": (0, 300),
}


def default_options() -> dict[str, Any]:
    return {s.name: s.default for s in OPTION_SPECS}


@dataclass(frozen=True)
class Options:
    """Validated options, as attributes (fast to read in the rules)."""

    dice_faces: Any = None
    deck: Any = "example"
    brother_mode: str = "add"
    brothers_per_trial: int = 1
    location_bonus: str = "best"
    brother_location: str = "any"
    rank_order: str = "1_is_highest"
    equal_rank: str = "reject"
    empty_pile: str = "stop"
    brother_draw: str = "software"
    banquet_token: str = "keep"
    gourd_timing: str = "before"
    gourds_per_trial: int = 1
    bribe_timing: str = "any"
    bribe_payer: str = "convict"
    bribe_rate: int = 10
    ask_convict_cell: bool = True
    fine_shortfall: str = "fewer"
    death_at: int = 0
    xp_at_cap: str = "lost"
    xp_cap_each: int = 4
    xp_cap_total: int = 8
    naturals: str = "override"
    detail_dice: str = "one"
    next_player: str = "next"
    reward_reroll: str = "on_read"
    bagne_brothers: str = "hand"
    heal_timing: str = "any"
    immobilised_and_prison: str = "both"


def parse_options(raw: Mapping[str, Any]) -> Options:
    """Validate merged options; :class:`EventError` names the bad one."""
    known = {s.name: s for s in OPTION_SPECS}
    unknown = set(raw) - set(known)
    if unknown:
        raise EventError(f"unknown option(s) for peripeties: {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    for name, spec in known.items():
        v = raw.get(name, spec.default)
        if spec.kind == "enum":
            if v not in (spec.choices or ()):
                raise EventError(
                    f"option {name} ({spec.decision}) must be one of {', '.join(map(str, spec.choices or ()))}, not {v!r}"
                )
        elif spec.kind == "bool":
            if not isinstance(v, bool):
                raise EventError(f"option {name} ({spec.decision}) must be true or false, not {v!r}")
        elif spec.kind == "int":
            lo, hi = _INT_RANGES[name]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise EventError(f"option {name} ({spec.decision}) must be an integer {lo}-{hi}, not {v!r}")
        values[name] = v
    return Options(**values)
