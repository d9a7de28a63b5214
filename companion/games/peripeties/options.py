"""The spec's decisions (D1-D19) as named options, with their defaults.

:class:`Options` is the single source (see :mod:`companion.games.options`): each field is
one option, stated once with its default, its decision and its label in both languages.
``default_options()``, the validation in ``new_state``, the set-up form of the tablet and
the options table of ``docs/peripeties.md`` all come from it. The ``data`` options
(``dice_faces``, ``deck``) are checked by the game when it loads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..options import OptionSpec, option, option_specs
from ..options import default_options as _defaults
from ..options import parse_options as _parse

__all__ = ["OptionSpec", "OPTION_SPECS", "Options", "default_options", "parse_options"]


@dataclass(frozen=True)
class Options:
    """Validated options, as attributes (fast to read in the rules)."""

    dice_faces: Any = option(
        None, decision='D1/D2', kind="data",
        fr='Fichier de dés de la table (même format que data/dice.json) ; null = dés fournis',
        en="The table's dice file content (same format as data/dice.json); null = packaged dice")
    deck: Any = option(
        'example', decision='1.6', kind="data",
        fr='Paquet de cartes : "example" (valeurs d\'exemple), "none" (vide) ou le contenu d\'un fichier de paquet',
        en='Card deck: "example" (example values), "none" (empty) or a deck file\'s content')
    brother_mode: str = option(
        'add', decision='D3', choices=('add', 'replace'),
        fr='Valeur du frère juré ajoutée à celle du personnage, ou à sa place',
        en="Sworn brother's value added to the character's own, or used instead of it")
    brothers_per_trial: int = option(
        1, decision='D3', lo=0, hi=1,
        fr='Nombre de frères jurés utilisables par épreuve',
        en='Sworn brothers usable per trial')
    location_bonus: str = option(
        'best', decision='D4', choices=('best', 'cumulative'),
        fr='Bonus de lieu de prédilection : un seul (+5 sinon +3) ou cumulés (+5 et +3 par frère)',
        en='Favoured-location bonus: one only (+5 else +3) or cumulative (+5 and +3 per brother)')
    brother_location: str = option(
        'any', decision='D4', choices=('any', 'used'),
        fr="Le +3 d'un frère : n'importe quel frère, ou seulement le frère utilisé",
        en="A brother's +3: any brother, or only the brother whose value is used")
    rank_order: str = option(
        '1_is_highest', decision='D5', choices=('1_is_highest', '1_is_lowest'),
        fr='Sens des rangs : le rang 1 est le plus élevé (tradition des 108 Étoiles) ou le plus bas',
        en='Rank direction: rank 1 is the most senior (108 Stars tradition) or the most junior')
    equal_rank: str = option(
        'reject', decision='D5', choices=('reject', 'accept'),
        fr='Carte de rang égal : rejetée (défausse) ou acceptée comme frère juré',
        en='Card of equal rank: rejected (discarded) or accepted as sworn brother')
    empty_pile: str = option(
        'stop', decision='D5', choices=('stop', 'reshuffle'),
        fr='Pioche épuisée : pas de frère juré, ou remélanger la défausse',
        en='Draw pile exhausted: no sworn brother, or reshuffle the discard pile')
    brother_draw: str = option(
        'software', decision='D5', choices=('software', 'table'),
        fr='Pioche des frères jurés : par le logiciel (pioche mélangée) ou cartes tirées à la table et saisies',
        en='Sworn-brother draw: by the software (shuffled pile) or cards drawn at the table and entered')
    banquet_token: str = option(
        'keep', decision='D6', choices=('keep', 'discard_after_travel'),
        fr="Jeton banquet : gardé jusqu'à être dépensé pour soigner, ou défaussé après le voyage du tour",
        en="Banquet token: kept until spent on a wound, or discarded after that turn's travel")
    gourd_timing: str = option(
        'before', decision='D7', choices=('before', 'after'),
        fr="La gourde se déclare avant le jet d'épreuve, ou peut se décider après",
        en='The gourd is declared before the trial roll, or may be decided after it')
    gourds_per_trial: int = option(
        1, decision='D7', lo=0, hi=99,
        fr='Gourdes buvables par épreuve de combat',
        en='Gourds that may be drunk on one combat trial')
    bribe_timing: str = option(
        'any', decision='D8', choices=('any', 'sentence'),
        fr='Corruption : à tout moment en prison, ou seulement à la condamnation',
        en='Bribery: any time while in prison, or only when sentenced')
    bribe_payer: str = option(
        'convict', decision='D8', choices=('convict', 'player'),
        fr='Qui paie la corruption : le bagnard seul, ou tout personnage du même joueur',
        en='Who pays the bribe: the convict only, or any character of the same player')
    bribe_rate: int = option(
        10, decision='D8', lo=1, hi=1000,
        fr='Taels par tour de bagne en moins',
        en='Taels per prison turn removed')
    ask_convict_cell: bool = option(
        True, decision='D9',
        fr='Demander (facultatif) la case choisie par le joueur suivant pour le bagnard',
        en='Ask (optionally) for the cell the next player chooses for the convict')
    fine_shortfall: str = option(
        'fewer', decision='D10', choices=('fewer', 'fewer_or_equal'),
        fr="Relance de la sentence si les taels sont strictement inférieurs à l'amende (ou aussi si égaux)",
        en='Sentence re-rolled when taels are strictly fewer than the fine (or also when equal)',
        choice_labels=(("Taels strictement inférieurs à l'amende", "Taels strictly fewer than the fine"),
                       ("Taels inférieurs ou égaux à l'amende", "Taels fewer than or equal to the fine")))
    death_at: int = option(
        0, decision='D11', lo=-100, hi=100,
        fr='Mort quand le combat effectif tombe à cette valeur ou moins',
        en='Death when effective combat falls to this value or below')
    xp_at_cap: str = option(
        'lost', decision='D12', choices=('lost', 'lowest'),
        fr='Expérience au plafond : perdue, ou placée sur la caractéristique la plus basse sous le plafond',
        en='Experience at a cap: lost, or placed on the lowest characteristic below its cap')
    xp_cap_each: int = option(
        4, decision='R18', lo=0, hi=100,
        fr='Plafond de jetons +1 par caractéristique',
        en='Cap of +1 tokens per characteristic')
    xp_cap_total: int = option(
        8, decision='R18', lo=0, hi=300,
        fr='Plafond de jetons +1 au total',
        en='Cap of +1 tokens in total')
    naturals: str = option(
        'override', decision='D13', choices=('override', 'ignore'),
        fr='Le maximum naturel réussit et le 1 naturel échoue toujours (ou pas de règle spéciale)',
        en='Natural maximum always succeeds and natural 1 always fails (or no special rule)',
        choice_labels=(("Le maximum réussit, le 1 échoue", "The maximum succeeds, the 1 fails"),
                       ("Pas de règle spéciale", "No special rule")))
    detail_dice: str = option(
        'one', decision='D14', choices=('one', 'two', 'none'),
        fr='D6 de détail (facultatif) : un seul lu dans les deux tables, un par table, ou aucun',
        en='Detail D6 (optional): one read in both tables, one per table, or none')
    next_player: str = option(
        'next', decision='D15', choices=('next', 'self'),
        fr='Qui lance difficulté, récompense et sentence : le joueur suivant, ou le joueur lui-même',
        en='Who rolls difficulty, reward and sentence: the next player, or the player themself')
    reward_reroll: str = option(
        'on_read', decision='D16', choices=('on_read', 'on_apply'),
        fr="Sixième frère juré : relancer le dé de récompense dès sa lecture, ou à l'application",
        en='Six sworn brothers: re-roll the reward die when it is read, or when it is applied')
    bagne_brothers: str = option(
        'hand', decision='D17', choices=('hand', 'discard'),
        fr='Au bagne, les frères jurés retournent dans la main du joueur (ou à la défausse)',
        en="On penal servitude, sworn brothers go to the player's hand (or the discard pile)")
    heal_timing: str = option(
        'any', decision='D18', choices=('any', 'travel'),
        fr='Soigner une blessure avec un banquet : à tout moment, ou pendant la phase de voyage',
        en='Healing a wound with a banquet: any time, or during the travel phase')
    immobilised_and_prison: str = option(
        'both', decision='D19', choices=('both', 'immobilised_only'),
        fr='Immobilisé et en prison à la fois : défausser les jetons et baisser le D4 (ou seulement défausser)',
        en='Immobilised and in prison at once: discard the tokens and lower the D4 (or only discard)',
        choice_labels=(("Défausser les jetons et baisser le D4", "Discard the tokens and lower the D4"),
                       ("Seulement défausser les jetons", "Only discard the tokens")))


#: The options in order (derived from :class:`Options`).
OPTION_SPECS: tuple[OptionSpec, ...] = option_specs(Options)


def default_options() -> dict[str, Any]:
    return _defaults(Options)


def parse_options(raw: Mapping[str, Any]) -> Options:
    """Validate merged options; :class:`~companion.errors.EventError` names the bad one."""
    return _parse(Options, raw, "peripeties")
