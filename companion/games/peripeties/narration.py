"""A suggested narration of an episode (R9), in French and English.

The narration itself is the next player's job (R9); the software only offers a reading
built from the dice, in the spirit of the rules' own examples (the tiger of the
mountains whose heart and liver are the banquet; the forged pass that earns a sworn
brother, or a fine on top of the toll):

1. **the encounter**: the location and the adversary (refined by the optional detail D6,
   R8, read in the tables of spec section 4, ``companion/data/peripeties_details.json``),
   with a verb that fits the adversary (a beast leaps out, a flood puts the character in
   peril, a mandarin is *met*: nobody "stumbles on a drought");
2. **the trial** and its difficulty, phrased to fit the adversary too (no sword against a
   drought);
3. **what winning and losing mean, in the scene**: the reward and the sentence told
   through the adversary ("les brigands le détrousseront de ses taels", "le cœur et le
   foie de la bête lui feront un festin"), each with its effect on the game where it
   matters (no travel this turn, sworn brother...).

Variety: every part has several phrasings (French and English in step, so both tablets
tell the same story), chosen by a hash of the dice and the character's name, taken
separately for each part, so that every phrasing of every part is used about as often
as the others over all the combinations of the dice (``tests`` check the distribution
over every combination). The choice is deterministic: a replay, the tablet and
``companion replay`` show the same reading, and a correction of a die may change it.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["narrate", "details", "detail_entry", "plan", "PARTS"]

DETAILS_PATH = Path(__file__).resolve().parents[2] / "data" / "peripeties_details.json"

Pair = tuple[str, str]  # (French, English)


@lru_cache(maxsize=1)
def details() -> Mapping[str, Any]:
    """The detail tables (read once; part of the program's data)."""
    tables: Mapping[str, Any] = json.loads(DETAILS_PATH.read_text(encoding="utf-8"))
    return tables


def detail_entry(table: str, key: str, d6: int | None) -> Mapping[str, str]:
    """The cell of a detail table (``table`` = ``lieu`` | ``adversaire``), or the generic
    phrase when no detail die was rolled."""
    col = details()[table][key]
    cell: Mapping[str, str] = col["generic"] if d6 is None else col["rows"][d6 - 1]
    return cell


#: The kind of adversary, for the verbs: a beast, the elements, or people.
_KIND = {"animal": "beast", "nature": "elements", "mandarin": "people", "soldats": "people",
         "bandits": "people", "paysans": "people"}

# {Lieu}/{lieu}: the place phrase; {nom}: the character; {adv}: the adversary ("un tigre");
# {ref}: the adversary again, definite ("le tigre"); {de_nom}: "de Wu Song" / "d'Aiko".
_INTRO: Mapping[str, tuple[Pair, ...]] = {
    "beast": (
        ("{Lieu}, {adv} surgit devant {nom}.", "{Lieu}, {adv} leaps out in front of {nom}."),
        ("{Lieu}, {nom} entend un grondement : {adv} lui barre le chemin.",
         "{Lieu}, {nom} hears a growl: {adv} blocks the way."),
        ("Alors que {nom} se trouve {lieu}, {adv} lui saute dessus.", "While {nom} is {lieu}, {adv} springs at them."),
    ),
    "elements": (
        ("{Lieu}, {adv} met {nom} en péril.", "{Lieu}, {adv} puts {nom} in peril."),
        ("{Lieu}, {nom} doit affronter {adv}.", "{Lieu}, {nom} must face {adv}."),
        ("Alors que {nom} se trouve {lieu}, le ciel et la terre se liguent : {adv}.",
         "While {nom} is {lieu}, heaven and earth turn against them: {adv}."),
    ),
    "people": (
        ("{Lieu}, {nom} tombe sur {adv}.", "{Lieu}, {nom} runs into {adv}."),
        ("{Lieu}, {nom} croise la route {de_adv}.", "{Lieu}, {nom} crosses paths with {adv}."),
        ("{nom} fait halte {lieu}… et voici {adv}.", "{nom} stops {lieu}… and there [[is|are]] {adv}."),
        ("{Lieu}, {nom} se retrouve face à {adv}.", "{Lieu}, {nom} comes face to face with {adv}."),
    ),
}

_TRIAL: Mapping[str, Mapping[str, tuple[Pair, ...]]] = {
    "combat": {
        "beast": (("Il faudra se battre", "It will come to blows"),
                  ("Seules les armes régleront l'affaire", "Only weapons will settle this"),
                  ("Le combat est inévitable", "A fight cannot be avoided")),
        "elements": (("Il faudra lutter à bras-le-corps contre les éléments", "It will take brute strength against the elements"),
                     ("Seules la force et l'endurance en viendront à bout", "Only strength and stamina will see this through"),
                     ("Ce sera une épreuve de force", "It will be a trial of strength")),
        "people": (("Il faudra se battre", "It will come to blows"),
                   ("Seules les armes régleront l'affaire", "Only weapons will settle this"),
                   ("Le combat est inévitable", "A fight cannot be avoided")),
    },
    "esprit": {
        "beast": (("Il faudra ruser avec la bête", "It will take cunning to outwit the beast"),
                  ("Seul l'esprit permettra de s'en tirer", "Only wits will get them out of this"),
                  ("C'est une affaire de sang-froid", "It is a matter of nerve")),
        "elements": (("Il faudra trouver une issue par la ruse", "It will take cunning to find a way out"),
                     ("Seul l'esprit permettra de s'en tirer", "Only wits will get them out of this"),
                     ("C'est une affaire de sang-froid", "It is a matter of nerve")),
        "people": (("Il faudra ruser", "Cunning is needed"),
                   ("Seul l'esprit permettra de s'en tirer", "Only wits will get them out of this"),
                   ("C'est une affaire de finesse", "It is a matter of wits")),
    },
    "magie": {
        "beast": (("Il faudra recourir à la magie", "Magic is needed"),
                  ("Des forces occultes habitent la bête", "Occult forces dwell in the beast"),
                  ("Seul un sortilège en viendra à bout", "Only a spell will overcome this")),
        "elements": (("Il faudra recourir à la magie", "Magic is needed"),
                     ("Des forces occultes sont à l'œuvre", "Occult forces are at work"),
                     ("Seul un sortilège apaisera les éléments", "Only a spell will calm the elements")),
        "people": (("Il faudra recourir à la magie", "Magic is needed"),
                   ("Des forces occultes sont à l'œuvre", "Occult forces are at work"),
                   ("Seul un sortilège en viendra à bout", "Only a spell will overcome this")),
    },
}

# What winning brings, told through the adversary ({ref}: "le tigre", "les brigands"...).
# Each reward: phrasings for this adversary, then phrasings that fit any.
_WIN: Mapping[str, Mapping[str, tuple[Pair, ...]]] = {
    "banquet": {
        "animal": (("le cœur et le foie de la bête lui feront un festin", "the beast's heart and liver will make them a feast"),),
        "nature": (("les gens du pays, sauvés, lui offriront un banquet", "the locals, saved, will throw them a banquet"),),
        "mandarin": (("le banquet préparé pour {ref} sera pour lui", "the banquet laid out for {ref} will be theirs"),),
        "soldats": (("les provisions {de_ref} lui feront un festin", "the supplies of {ref} will make them a feast"),),
        "bandits": (("le butin {de_ref} paiera un festin", "the loot of {ref} will pay for a feast"),),
        "paysans": (("{ref} lui [[servira|serviront]] un festin pour le remercier", "{ref} will serve them a feast in thanks"),),
        "*": (("un festin l'attend, qui lui donnera des ailes pour la route (deux cases au voyage)",
               "a feast awaits, one that lends them wings for the road (two cells of travel)"),),
    },
    "gourde": {
        "animal": (("une gourde d'arak, perdue par un voyageur moins heureux, l'attend dans l'antre",
                    "a gourd of arak, lost by a less lucky traveller, waits in the lair"),),
        "nature": (("un aubergiste reconnaissant lui remplira une gourde d'arak",
                    "a grateful innkeeper will fill a gourd of arak for them"),),
        "mandarin": (("la gourde du meilleur arak {de_ref} changera de main", "{ref}'s finest gourd of arak will change hands"),),
        "soldats": (("la gourde d'arak du capitaine sera pour lui", "the captain's gourd of arak will be theirs"),),
        "bandits": (("la gourde d'arak du chef sera pour lui", "the leader's gourd of arak will be theirs"),),
        "paysans": (("{ref} lui [[offrira|offriront]] une gourde d'arak", "{ref} will give them a gourd of arak"),),
        "*": (("une gourde d'arak sera sa récompense, de quoi se donner du cœur au prochain combat",
               "a gourd of arak will be the reward, courage for the next fight"),),
    },
    "taels": {
        "animal": (("la prime promise pour la peau de la bête remplira sa bourse de taels",
                    "the bounty on the beast's hide will fill their purse with taels"),),
        "nature": (("les notables de l'endroit le paieront en taels d'argent", "the local worthies will pay them in silver taels"),),
        "mandarin": (("la bourse {de_ref}, pleine de taels, changera de main", "{ref}'s purse, full of taels, will change hands"),),
        "soldats": (("la solde {de_ref} finira dans sa bourse", "the pay of {ref} will end up in their purse"),),
        "bandits": (("le magot {de_ref}, des taels d'argent, sera pour lui", "the hoard of {ref}, silver taels, will be theirs"),),
        "paysans": (("{ref} [[se cotisera|se cotiseront]] pour lui donner quelques taels", "{ref} will club together to give them a few taels"),),
        "*": (("une bourse de taels d'argent l'attend", "a purse of silver taels awaits"),),
    },
    "frere": {
        "animal": (("le voyageur arraché à la bête lui sera si redevable qu'il deviendra son frère juré",
                    "the traveller saved from the beast will owe them so much as to become a sworn brother"),),
        "nature": (("un rescapé tiré du danger lui jurera fraternité : un frère juré",
                    "a survivor pulled from danger will swear brotherhood: a sworn brother"),),
        "mandarin": (("un prisonnier {de_ref}, libéré grâce à lui, deviendra son frère juré",
                      "a prisoner of {ref}, freed thanks to them, will become a sworn brother"),),
        "soldats": (("un déserteur qu'il aura protégé deviendra son frère juré", "a deserter they protected will become a sworn brother"),),
        "bandits": (("[[un complice {de_ref}|le plus brave {de_ref}]], gagné par son courage, deviendra son frère juré",
                     "[[an accomplice of {ref}|the bravest of {ref}]], won over by their courage, will become a sworn brother"),),
        "paysans": (("le meneur {de_ref} lui jurera fraternité : un frère juré", "the leader of {ref} will swear brotherhood: a sworn brother"),),
        "*": (("celui qu'il aura aidé lui sera si redevable qu'il deviendra son frère juré",
               "someone they helped will owe them so much as to become a sworn brother"),),
    },
}

_LOSE: Mapping[str, Mapping[str, tuple[Pair, ...]]] = {
    "voyage": {
        "animal": (("la bête le traquera jusqu'au soir, et pas de voyage ce tour", "the beast will hunt them until nightfall, and no travel this turn"),),
        "nature": (("les éléments le retiendront sur place, et pas de voyage ce tour", "the elements will keep them where they are, and no travel this turn"),),
        "mandarin": (("{ref} le fera retenir, et pas de voyage ce tour", "{ref} will have them held, and no travel this turn"),),
        "soldats": (("{ref} le [[retiendra|retiendront]] au poste, et pas de voyage ce tour", "{ref} will keep them at the post, and no travel this turn"),),
        "bandits": (("{ref} l'[[attachera|attacheront]] à un arbre au bord du chemin, et pas de voyage ce tour",
                     "{ref} will leave them tied to a tree by the road, and no travel this turn"),),
        "paysans": (("{ref} le [[retiendra|retiendront]] jusqu'au soir, et pas de voyage ce tour", "{ref} will hold them until nightfall, and no travel this turn"),),
        "*": (("la journée sera perdue, sans voyage ce tour", "the day will be lost, with no travel this turn"),),
    },
    "taels": {
        "animal": (("soigner ses plaies et racheter son paquetage lui coûtera des taels", "tending wounds and replacing gear will cost them taels"),),
        "nature": (("il y laissera une partie de ses taels", "they will lose some of their taels to it"),),
        "mandarin": (("{ref} lui infligera une amende, en plus du droit de passage", "{ref} will fine them, on top of the toll"),),
        "soldats": (("{ref} lui [[fera|feront]] payer une amende en taels", "{ref} will make them pay a fine in taels"),),
        "bandits": (("{ref} le [[détroussera|détrousseront]] de ses taels", "{ref} will rob them of their taels"),),
        "paysans": (("il devra dédommager {ref} en taels", "they will have to pay {ref} damages in taels"),),
        "*": (("il y perdra des taels d'argent", "they will lose silver taels"),),
    },
    "bagne": {
        "animal": (("on l'accusera de braconnage, et ce sera le bagne", "they will be accused of poaching, and sent to the penal colony"),),
        "nature": (("on lui imputera le désastre, et ce sera le bagne", "they will be blamed for the disaster, and sent to the penal colony"),),
        "mandarin": (("{ref} le fera condamner au bagne, les cachets dorés tatoués sur les joues",
                      "{ref} will have them sentenced to the penal colony, golden brands tattooed on their cheeks"),),
        "soldats": (("{ref} le [[traînera|traîneront]] au bagne", "{ref} will drag them to the penal colony"),),
        "bandits": (("pris avec {ref}, il finira au bagne", "caught along with {ref}, they will end up in the penal colony"),),
        "paysans": (("{ref} le [[livrera|livreront]] aux autorités, et ce sera le bagne", "{ref} will hand them over to the authorities, and it will be the penal colony"),),
        "*": (("il finira au bagne", "they will end up in the penal colony"),),
    },
    "blessure": {
        "animal": (("la bête lui laissera une blessure incapacitante", "the beast will leave them with a crippling wound"),),
        "nature": (("il en gardera une blessure incapacitante", "they will come out of it with a crippling wound"),),
        "mandarin": (("les sbires {de_ref} le roueront de coups : une blessure incapacitante", "the henchmen of {ref} will beat them: a crippling wound"),),
        "soldats": (("les coups {de_ref} lui laisseront une blessure incapacitante", "the blows of {ref} will leave them with a crippling wound"),),
        "bandits": (("{ref} le [[laissera|laisseront]] pour mort, une blessure incapacitante au flanc",
                     "{ref} will leave them for dead, with a crippling wound"),),
        "paysans": (("les fourches {de_ref} lui laisseront une blessure incapacitante", "the pitchforks of {ref} will leave them with a crippling wound"),),
        "*": (("il en gardera une blessure incapacitante", "they will carry a crippling wound from it"),),
    },
}

_STAKES: tuple[Pair, ...] = (
    ("Si {nom} l'emporte, {win}. Sinon, {lose}.", "If {nom} wins, {win}. If not, {lose}."),
    ("En cas de victoire, {win} ; en cas d'échec, {lose}.", "On victory, {win}; on failure, {lose}."),
    ("Si tout va bien, {win}. Mais en cas d'échec, {lose}.", "If all goes well, {win}. But on failure, {lose}."),
)

#: The parts of a reading, in order (see :func:`plan`).
PARTS = ("intro", "trial", "win", "lose", "stakes")


def _pick(n: int, seed: str, part: str) -> int:
    """Which of ``n`` phrasings a part uses: a CRC of the dice and the part's name, so the
    parts vary independently of each other."""
    return zlib.crc32(f"{part}|{seed}".encode()) % n


def _options(part: str, adversaire: str, epreuve: str, reward: str | None, sentence: str | None) -> tuple[Pair, ...]:
    kind = _KIND[adversaire]
    if part == "intro":
        return _INTRO[kind]
    if part == "trial":
        return _TRIAL[epreuve][kind]
    if part == "win":
        table = _WIN[reward or "banquet"]
        return table[adversaire] + table["*"]
    if part == "lose":
        table = _LOSE[sentence or "voyage"]
        return table[adversaire] + table["*"]
    return _STAKES


def plan(name: str, lieu: str, adversaire: str, epreuve: str, difficulty: int | None, reward: str | None,
         sentence: str | None, detail: Sequence[int] = ()) -> dict[str, tuple[int, int]]:
    """For each part: (the phrasing chosen, how many there were). What :func:`narrate`
    tells; tests use it to check that every phrasing gets its turn."""
    seed = f"{lieu}/{adversaire}/{epreuve}/{difficulty}/{reward}/{sentence}/{list(detail)}/{name}"
    out = {}
    for part in PARTS:
        if part in ("win", "lose", "stakes") and not (reward and sentence):
            continue
        n = len(_options(part, adversaire, epreuve, reward, sentence))
        out[part] = (_pick(n, seed, part), n)
    return out


_VOWELS = "aeiouyàâäéèêëîïôöûüœ"
#: "[[singular|plural]]" in a phrasing: the verb agrees with the adversary ("la milice le
#: retiendra", "les soldats le retiendront").
_NUMBER = re.compile(r"\[\[(.*?)\|(.*?)\]\]")
_FR_FIXES = ((" de un ", " d'un "), (" de une ", " d'une "), (" de des ", " de "), (" de le ", " du "),
             (" de les ", " des "), (" à le ", " au "), (" à les ", " aux "))


def _french(s: str) -> str:
    """Elisions and contractions the templates cannot know in advance: "de un tigre" ->
    "d'un tigre", "de les brigands" -> "des brigands", "le éboulement" -> "l'éboulement"."""
    for a, b in _FR_FIXES:
        s = s.replace(a, b)
    s = re.sub(rf"\b([Ll])[ea] (?=[{_VOWELS}{_VOWELS.upper()}])", r"\1'", s)
    s = re.sub(rf"\b([Dd])e (?=[{_VOWELS}{_VOWELS.upper()}])", r"\1'", s)
    s = re.sub(rf"\b([Qq])ue (?=[{_VOWELS}{_VOWELS.upper()}])", r"\1u'", s)
    return s


def _definite_fr(phrase: str) -> str:
    """"un tigre (ou un lion)" -> "le tigre", "des soldats" -> "les soldats", "une crue" ->
    "la crue"; "la milice" stays."""
    p = re.sub(r"\s*\(.*?\)", "", phrase).strip()
    for a, b in (("un ", "le "), ("une ", "la "), ("des ", "les ")):
        if p.startswith(a):
            return _french(b + p[len(a):])
    return p


def _definite_en(phrase: str) -> str:
    """"a tiger (or a lion)" -> "the tiger", "soldiers" -> "the soldiers"."""
    p = re.sub(r"\s*\(.*?\)", "", phrase).strip()
    for a in ("a ", "an "):
        if p.startswith(a):
            return "the " + p[len(a):]
    return p if p.startswith("the ") else "the " + p


def _de(word: str) -> str:
    return ("d'" if word[:1].casefold() in _VOWELS else "de ") + word


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def narrate(
    name: str,
    lieu: str,
    adversaire: str,
    epreuve: str,
    difficulty: int | None,
    reward: str | None,
    sentence: str | None,
    detail: Sequence[int] = (),
    detail_mode: str = "one",
) -> dict[str, Any]:
    """The suggested reading ``{"fr", "en"}`` plus the detail cells used
    (``lieu_detail``/``adversaire_detail``: ``{"fr", "en"}`` or absent)."""
    d_lieu = detail[0] if detail else None
    d_adv = (detail[1] if len(detail) > 1 else None) if detail_mode == "two" else d_lieu
    loc = detail_entry("lieu", lieu, d_lieu)
    adv = detail_entry("adversaire", adversaire, d_adv)
    picks = plan(name, lieu, adversaire, epreuve, difficulty, reward, sentence, detail)
    out: dict[str, Any] = {}
    for k, lang in enumerate(("fr", "en")):
        fr = lang == "fr"
        place = loc[f"phrase_{lang}"]
        who = adv[f"phrase_{lang}"]
        ref = _definite_fr(who) if fr else _definite_en(who)
        fields = {"Lieu": _cap(place), "lieu": place, "nom": name, "adv": who, "ref": ref, "Ref": _cap(ref),
                  "de_nom": _de(name), "de_ref": _french(" de " + ref).strip(),
                  "de_adv": _french(" de " + who).strip()}

        plural = ref.startswith("les ") if fr else not re.match(r"(an?|the) ", who)

        def say(part: str) -> str:
            i, _n = picks[part]
            said = _options(part, adversaire, epreuve, reward, sentence)[i][k].format(**fields)
            return _NUMBER.sub(lambda m: m.group(2 if plural else 1), said)

        trial = say("trial")
        if difficulty is not None:
            scale = 12 if epreuve == "magie" else 20
            trial = f"{trial} ({'difficulté' if fr else 'difficulty'} {difficulty}/{scale})."
        else:
            trial += "."
        parts = [_cap(say("intro")), trial]
        if reward and sentence:
            fields["win"], fields["lose"] = say("win"), say("lose")
            parts.append(say("stakes"))
        text = " ".join(parts)
        out[lang] = _french(text) if fr else text
    if d_lieu is not None:
        out["lieu_detail"] = {"fr": loc["fr"], "en": loc["en"]}
    if d_adv is not None:
        out["adversaire_detail"] = {"fr": adv["fr"], "en": adv["en"]}
    return out
