"""The replay views' own words (buttons, headings), by the ruleset's ``terms.language``.

The game's words (hand, score, total, colours, plays...) come from the ruleset's ``terms``;
these are only the words of the viewer around them. A language not listed here gets English.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

VIEWER_WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "en": MappingProxyType({
        "start": "Start", "back": "Back", "next": "Next", "end": "End", "previous_hand": "Previous",
        "next_hand": "Next", "event": "event", "of": "of", "events": "Events", "held": "Tiles held",
        "so_far": "so far", "seat": "seat", "to_act": "to play", "unsound": "Unsound record", "line": "line",
        "keys": "keys: ← → step, PgUp PgDn hand, Home End", "pile": "pile",
        "stepper_keys": "keys: n/→/space next, p/←/b back, ]/[ next/previous hand, 1-9 hand, g start, G end, q quit",
        "record": "record",
    }),
    "es": MappingProxyType({
        "start": "Inicio", "back": "Atrás", "next": "Siguiente", "end": "Final", "previous_hand": "Anterior",
        "next_hand": "Siguiente", "event": "jugada", "of": "de", "events": "Jugadas", "held": "Fichas en mano",
        "so_far": "hasta ahora", "seat": "asiento", "to_act": "juega", "unsound": "Registro incorrecto",
        "line": "línea", "keys": "teclas: ← → paso, RePág AvPág mano, Inicio Fin", "pile": "montón",
        "stepper_keys": "teclas: n/→/espacio siguiente, p/←/b atrás, ]/[ mano siguiente/anterior, 1-9 mano, "
                        "g inicio, G final, q salir",
        "record": "registro",
    }),
})


def viewer_words(language: str) -> Mapping[str, str]:
    return VIEWER_WORDS.get(language, VIEWER_WORDS["en"])
