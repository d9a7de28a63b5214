"""The spec's decisions (section 5, E1-E28) and the table's settings as named options.

:class:`Options` is the single source (see :mod:`companion.games.options`): each field is
one option, stated once with its default, the rule or decision it records, its allowed
values and its label in both languages. ``EspriGame.default_options()``, the validation
in ``new_state``, the tablet's set-up form, the odds' defaults
(:data:`~companion.games.espri.odds.DEFAULT_ODDS_OPTIONS`) and the options table of
``docs/espri.md`` all come from it. The rules read ``state.options.<name>``.

>>> DEFAULTS.max_draw, DEFAULTS.halo_cells
(12, [4, 8, 12, 16, 20])
>>> parse_options({"max_draw": 73})
Traceback (most recent call last):
...
companion.errors.EventError: l'option max_draw (R12/E8) doit être un nombre entier de 1 à 72, pas 73 / option max_draw (R12/E8) must be a whole number from 1 to 72, not 73
>>> parse_options({"halo_cells": [4, "x"]})
Traceback (most recent call last):
...
companion.errors.EventError: l'option halo_cells (1.3) est une liste de numéros de case de 1 à 60, pas [4, 'x'] / option halo_cells (1.3) is a list of cell numbers from 1 to 60, not [4, 'x']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..options import OptionSpec, option, option_specs
from ..options import default_options as _defaults
from ..options import parse_options as _parse

__all__ = ["Options", "OPTION_SPECS", "DEFAULTS", "MAX_PATH", "MAX_PER_COLOUR", "default_options", "parse_options", "as_options"]

#: The longest path a table may set (option ``path_length``).
MAX_PATH = 60
#: The most gems of one colour a table may have (option ``gems_per_colour``).
MAX_PER_COLOUR = 50


def _cells_problem(value: Any) -> tuple[str, str] | None:
    """``halo_cells``: a list of cell numbers 1..MAX_PATH (cosmetic: a cell beyond a
    shorter path is simply not shown)."""
    if isinstance(value, list) and all(
            isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= MAX_PATH for c in value):
        return None
    return (f"l'option halo_cells (1.3) est une liste de numéros de case de 1 à {MAX_PATH}, pas {value!r}",
            f"option halo_cells (1.3) is a list of cell numbers from 1 to {MAX_PATH}, not {value!r}")


@dataclass(frozen=True)
class Options:
    """Validated ESPRI options, as attributes (fast to read in the rules)."""

    gems_per_colour: int = option(
        12, decision="R1", lo=1, hi=MAX_PER_COLOUR,
        fr="Gemmes de chaque couleur dans la pioche au départ",
        en="Gems of each colour in the pool at the start")
    path_length: int = option(
        21, decision="E3", lo=1, hi=MAX_PATH,
        fr="Cases par chemin, la dernière étant la case de monde",
        en="Cells per path, the last one being the world cell")
    halo_cells: list[int] = option(
        [4, 8, 12, 16, 20], decision="1.3", kind="data", check=_cells_problem,
        fr="Cases à halo de chaque chemin, en plus de la case de monde (affichage seulement)",
        en="Haloed cells of each path, besides the world cell (display only)")
    adjacent_modifier: str = option(
        "one_degree", decision="E5", choices=("one_degree", "two_up_one_down"),
        fr="Saison adjacente + Temps/Rupture\u202f: un degré (Réussite ou Échec), ou Réussite Critique ou Échec",
        en="Adjacent Season + Time/Rupture: one degree (Success or Failure), or Critical Success or Failure")
    fixed_criticals: bool = option(
        False, decision="E5",
        fr="Saison appelée + Temps/Rupture toujours Réussite Critique, opposée + Temps/Rupture toujours Échec Critique",
        en="Called Season + Time/Rupture always Critical Success, opposite + Time/Rupture always Critical Failure")
    max_draw: int = option(
        12, decision="R12/E8", lo=1, hi=72,
        fr="Gemmes tirées au plus\u202f; au-delà, le résultat est automatique",
        en="Most gems drawn; beyond that, the result is automatic")
    automatic_success_draw: bool = option(
        True, decision="E8",
        fr="Sur une Réussite Critique automatique, tirer le maximum de gemmes (sinon aucune)",
        en="On an automatic Critical Success, draw the most gems (otherwise none)")
    redraw_first_gem: str = option(
        "pool", decision="E6", choices=("pool", "aside"),
        fr="Nouveau tirage à N = 1 ou −1\u202f: la première gemme retourne à la pioche, ou est mise de côté",
        en="Redraw at N = 1 or −1: the first gem goes back to the pool, or is set aside")
    gm_chooses_minus_one_with_prayer: bool = option(
        False, decision="E7",
        fr="À N = −1, le MJ choisit quand une Prière a été ajoutée",
        en="At N = −1, the GM chooses when a Prayer has been added")
    unplaced_prayer: str = option(
        "pool", decision="E10", choices=("pool", "owner"),
        fr="Une Prière ajoutée mais non posée retourne à la pioche, ou à son propriétaire",
        en="A Prayer added but not placed goes back to the pool, or to its owner")
    success_extras_score: str = option(
        "unmodified", decision="E11", choices=("unmodified", "modified"),
        fr="Gemmes posées en plus sur une Réussite\u202f: score de la Saison appelée sans bonus ni malus, ou avec",
        en="Extra gems placed on a Success: the Called Season score without bonuses and maluses, or with them")
    rupture_blocks_standing_nymph: bool = option(
        False, decision="E12b",
        fr="Une Nymphe posée sur une gemme de Rupture reste bloquée jusqu'à son retrait",
        en="A Nymph standing on a Rupture gem stays blocked until it is removed")
    rupture_removal_timing: str = option(
        "after_advance", decision="E15", choices=("after_advance", "before_advance"),
        fr="Rupture retirée sur une Réussite Critique\u202f: après l'avancée des Nymphes, ou avant",
        en="Rupture removed on a Critical Success: after the Nymphs advance, or before")
    bounded_effects_order: str = option(
        "minima_first", decision="E17", choices=("minima_first", "maxima_first"),
        fr="Bonus et malus bornés\u202f: ceux à minimum d'abord, ou ceux à maximum d'abord",
        en="Bounded bonuses and maluses: those with a minimum first, or those with a maximum first")
    resonance_score: str = option(
        "tutelary", decision="E18", choices=("tutelary", "called"),
        fr="Score qui doit dépasser 0 pour la Résonance\u202f: celui de la Saison tutélaire, ou de la Saison appelée",
        en="Score that must be above 0 to resonate: the tutelary Season's, or the Called Season's")
    harmony_cost_per_gem: int = option(
        1, decision="E19", lo=0, hi=12,
        fr="Harmonie dépensée par gemme donnée en Prière",
        en="Harmony spent per gem given as a Prayer")
    caterpillar: bool = option(
        False, decision="R36",
        fr="Chenille\u202f: une Nymphe qui n'avance pas déplace une gemme de derrière elle devant elle",
        en="Caterpillar: a Nymph that does not advance moves a gem from behind her to her front")
    caterpillar_gem: str = option(
        "farthest_behind", decision="E22", choices=("farthest_behind", "nearest_behind"),
        fr="Gemme déplacée par la chenille\u202f: la plus éloignée derrière la Nymphe, ou la plus proche",
        en="Gem the caterpillar moves: the farthest behind the Nymph, or the nearest")
    between_sessions: str = option(
        "whole_board", decision="E26", choices=("whole_board", "nymphs_only"),
        fr="Entre deux séances\u202f: tout le plateau est conservé, ou seulement les Nymphes",
        en="Between sessions: the whole board is kept, or only the Nymphs")
    no_talent_penalty: int = option(
        1, decision="R24/E27", lo=0, hi=4,
        fr="Degrés de résultat perdus par un Appel sans Talent",
        en="Result levels lost by an Appel without a Talent")
    setup_gm_ruptures: int = option(
        4, decision="R7.5", lo=0, hi=4,
        fr="Gemmes de Rupture posées par le MJ à la mise en place (une par quadrant)",
        en="Rupture gems the GM places at set-up (one per quadrant)")
    communion_pool_max: int = option(
        12, decision="R35", lo=0, hi=300,
        fr="Gemmes au plus dans la pioche pour le Rituel de Communion",
        en="Most gems in the pool for the Communion Ritual")
    enforce_score_caps: bool = option(
        True, decision="1.4",
        fr="Plafonds des scores des fiches (6 en Saison tutélaire, 4 en opposée, 5 sinon\u202f; Dévotion 5, 6 pour une Prêtresse)",
        en="Caps of the sheets' scores (6 in the tutelary Season, 4 in the opposite one, 5 otherwise;"
           " Devotion 5, 6 for a Priestess)")


#: The options in order (derived from :class:`Options`).
OPTION_SPECS: tuple[OptionSpec, ...] = option_specs(Options)
#: The defaults, typed.
DEFAULTS = Options()


def default_options() -> dict[str, Any]:
    """The defaults as JSON values (a fresh copy each time)."""
    return _defaults(Options)


def parse_options(raw: Mapping[str, Any]) -> Options:
    """Validate merged options; :class:`~companion.errors.EventError` names the bad one."""
    return _parse(Options, raw, "espri")


def as_options(options: Options | Mapping[str, Any] | None) -> Options:
    """Typed options from typed ones, ``None`` (the defaults) or a partial mapping of JSON
    options (the odds' callers name only the options they change), checked."""
    if options is None:
        return DEFAULTS
    if isinstance(options, Options):
        return options
    return parse_options(options)
