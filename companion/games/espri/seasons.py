"""Reference texts shown beside the odds: what each Season covers, its intentions and
example actions (spec 1.6), Essence and Anathema (1.5), the climate of each quadrant
(1.3). Bilingual, French first."""

from __future__ import annotations

from typing import Any

SEASON_INFO: dict[str, dict[str, Any]] = {
    "hiver": {
        "name": {"fr": "Hiver", "en": "Winter"},
        "covers": {"fr": "mouvement, adaptation, coordination, instinct sauvage ; se déplacer, modifier, manipuler, se fondre, imiter, ressentir, saisir l'instant",
                   "en": "movement, adaptation, coordination, wild instinct; moving, modifying, manipulating, blending in, imitating, feeling, seizing the moment"},
        "intentions": ["Coordination", "Instinct", "Mimer", "Modifier", "Mouvement", "Profiter"],
        "examples": {"fr": "se déplacer à couvert en suivant le terrain ; orienter une conversation ; modifier/détourner un objet ; imiter le comportement des autres",
                     "en": "move under cover following the terrain; steer a conversation; modify/divert an object; imitate others' behaviour"},
        "essence": {"fr": "Opportunisme : accepter l'adversité, saisir l'instant, ne jamais abandonner",
                    "en": "Opportunism: accept adversity, seize the moment, never give up"},
        "anathema": {"fr": "Fierté : orgueil, vantardise, recherche de reconnaissance", "en": "Pride: boasting, seeking recognition"},
        "climate": {"fr": "précipitations", "en": "precipitation"},
    },
    "printemps": {
        "name": {"fr": "Printemps", "en": "Spring"},
        "covers": {"fr": "sens, vérité et illusion, tromperie, paix, éviter le danger ; perception, farces, mensonges, démêler le vrai du faux",
                   "en": "senses, truth and illusion, deceit, peace, avoiding danger; perception, pranks, lies, telling true from false"},
        "intentions": ["Faux", "Éviter", "Pacifisme", "Perception", "Tromper", "Vérité"],
        "examples": {"fr": "chercher des traces ; apaiser les tensions ; cacher un objet ou falsifier des documents ; reconnaître une imitation",
                     "en": "look for tracks; ease tensions; hide an object or forge documents; recognise an imitation"},
        "essence": {"fr": "Curiosité : savoir, apprendre, tout essayer", "en": "Curiosity: know, learn, try everything"},
        "anathema": {"fr": "Autorité : contraindre autrui ; le Printemps n'initie jamais la violence",
                     "en": "Authority: coercing others; Spring never initiates violence"},
        "climate": {"fr": "vent", "en": "wind"},
    },
    "ete": {
        "name": {"fr": "Été", "en": "Summer"},
        "covers": {"fr": "énergie pour se dépasser, encourager, créer des liens, émotions, passion, sacrifice ; actions explosives, inspirer, mener, empathie",
                   "en": "energy to surpass oneself, encouraging, bonding, emotions, passion, sacrifice; explosive actions, inspiring, leading, empathy"},
        "intentions": ["Émotion", "Force", "Interaction", "Rassembler", "Sacrifice", "Vitesse"],
        "examples": {"fr": "se déplacer vite, soulever une lourde charge, se sacrifier ; relier des informations ; lire les rapports de force, émouvoir ; embellir un objet ou le détruire pour un autre usage",
                     "en": "move fast, lift a heavy load, sacrifice oneself; link pieces of information; read power plays, move people; embellish an object or destroy it for another use"},
        "essence": {"fr": "Émotion : vivre et partager ses émotions", "en": "Emotion: live and share emotions"},
        "anathema": {"fr": "Facilité : moindre effort, complaisance, confort", "en": "Ease: path of least resistance, complacency, comfort"},
        "climate": {"fr": "température", "en": "temperature"},
    },
    "automne": {
        "name": {"fr": "Automne", "en": "Autumn"},
        "covers": {"fr": "ordre, organisation, logique, protection ; préparer, construire, protéger, réparer, déduire, mémoire, organiser",
                   "en": "order, organisation, logic, protection; preparing, building, protecting, repairing, deducing, memory, organising"},
        "intentions": ["Acquérir", "Construire", "Définir", "Logique", "Réparer", "Protection"],
        "examples": {"fr": "rassembler des ressources, porter loin un blessé ; construire un argument ; mémoriser ; réparer un objet, bâtir un abri",
                     "en": "gather resources, carry a wounded comrade far; build an argument; memorise; repair an object, build a shelter"},
        "essence": {"fr": "Prévoyance : anticipation, organisation, préparation", "en": "Foresight: organisation, preparation"},
        "anathema": {"fr": "Versatilité : demi-vérités, mensonges, inconstance", "en": "Fickleness: half-truths, lies, inconstancy"},
        "climate": {"fr": "densité de l'atmosphère / visibilité", "en": "atmosphere density / visibility"},
    },
}

TIME_INFO: dict[str, Any] = {
    "name": {"fr": "Temps", "en": "Time"},
    "essence": {"fr": "Coopération : égalité, équité, une chance pour chacun", "en": "Cooperation: equality, fairness, a chance for everyone"},
    "anathema": {"fr": "Passivité : l'inaction quand on pourrait agir", "en": "Passivity: inaction when one could act"},
}
