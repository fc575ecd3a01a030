"""What the names in a scenario refer to: players, labels (``… as NAME``) and card names.

A reference (REF) is a label, a card name (it must be unambiguous, unless the objects are alike
or, for the acting player, one is clearly preferable) or ``ability of CARD`` for an ability on
the stack.  Every lookup that fails says what was meant, with one hint: :func:`did_you_mean`.
"""
from __future__ import annotations

import difflib
import re
from typing import Iterable, cast

from ..game import Game
from ..state import Obj, Target, object_target, player_target
from .model import ScenarioError

#: ``REF``, ``REF #2`` (the second ability), ``REF (choose: {G}{G})`` (choices of a mana ability)
ACT = re.compile(r"^(?P<ref>.+?)(?:\s+#(?P<n>\d+))?(?:\s+\((?P<sub>[^()]*)\))?$")
ABILITY_OF = "ability of "


def parse_ref(text: str) -> re.Match[str]:
    """``REF #n (sub)`` -> groups ``ref``, ``n``, ``sub`` (every non-empty text matches)."""
    return cast(re.Match[str], ACT.match(text))


def did_you_mean(word: str, candidates: Iterable[str], n: int = 3) -> str:
    """``" (did you mean 'Ernte des Altars'?)"`` for the ``n`` closest candidates, or ``""`` if none is close."""
    close = difflib.get_close_matches(word, list(candidates), n)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


class Names:
    def __init__(self, path: str, game: Game, players: dict[str, int]):
        self.path = path
        self.game = game
        self.db = game.db
        self.players = players  # name -> player index
        self.labels: dict[str, int] = {}  # label -> uid (the physical card, across zone changes)

    def fail(self, line: int | None, message: str) -> ScenarioError:
        return ScenarioError(self.path, line, message)

    def card(self, line: int, name: str) -> None:
        """``name`` must be a card of the card database."""
        if name not in self.db:
            raise self.fail(line, f"unknown card {name!r}{did_you_mean(name, self.db.names())}")

    def add_label(self, line: int, label: str, uid: int) -> None:
        if label in self.labels or label in self.players:
            raise self.fail(line, f"label {label!r} is already used")
        self.labels[label] = uid

    def known(self, line: int, text: str) -> str:
        """A label or card name, checked to exist; which object it means is decided when costs are paid."""
        if text not in self.labels and text not in self.db:
            raise self._unknown(line, text)
        return text

    def target(self, line: int, text: str) -> Target:
        text = text.strip()
        if text in self.players and text not in self.labels:
            return player_target(self.players[text])
        return object_target(self.ref(line, text))

    def namer(self, text: str, candidates: list[int]) -> int | None:
        """The game's hook for choices made by name (:data:`engine.game.Namer`): labels count too."""
        try:
            return self.ref(None, text, candidates=candidates)
        except ScenarioError:
            return None

    def ref(self, line: int | None, text: str, *, candidates: list[int] | None = None,
            zones: tuple[str, ...] | None = None, player: int | None = None) -> int:
        """An object id from a label or a card name; ambiguity is an error unless the objects are alike."""
        st = self.game.state
        text = text.strip()
        pool = list(candidates) if candidates is not None else list(st.objects)
        if candidates is None and not text.startswith(ABILITY_OF):
            pool = [oid for oid in pool if st.objects[oid].ability is None]
        if text in self.labels:
            return self._labelled(line, text, pool)
        hits = self._named(text, pool, zones, player)
        if not hits:
            if text not in self.db and not text.startswith(ABILITY_OF):
                raise self._unknown(line, text)
            where = " or ".join(zones) if zones else "the game"
            raise self.fail(line, f"no {text!r} in {where} that can be used here")
        first = st.objects[hits[0]]
        alike = [oid for oid in hits if _alike(st.objects[oid], first)]
        if len(alike) < len(hits) and not (player is not None and self._prefer_first(hits, player)):
            raise self.fail(line, f"{text!r} is ambiguous ({len(hits)} objects); label them with 'as NAME'")
        return hits[0]

    def _labelled(self, line: int | None, label: str, pool: list[int]) -> int:
        st = self.game.state
        uid = self.labels[label]
        hits = [oid for oid in pool if st.objects[oid].uid == uid and st.objects[oid].ability is None]
        if not hits:
            obj = st.find_uid(uid)
            where = f"it is in the {obj.zone}" if obj else "it no longer exists"
            raise self.fail(line, f"{label!r} cannot be used here: {where}")
        return hits[0]

    def _named(self, text: str, pool: list[int], zones: tuple[str, ...] | None, player: int | None) -> list[int]:
        """Objects of ``pool`` called ``text`` (in ``zones``); the acting player's untapped ones first."""
        st = self.game.state
        if text.startswith(ABILITY_OF):
            hits = [oid for oid in pool if st.objects[oid].source_card == text[len(ABILITY_OF):]]
        else:
            hits = [oid for oid in pool if st.objects[oid].card == text]
        if zones:
            hits = [oid for oid in hits if st.objects[oid].zone in zones]
        if player is not None:
            hits.sort(key=lambda oid: (st.objects[oid].controller != player, st.objects[oid].tapped))
        return hits

    def _unknown(self, line: int | None, text: str) -> ScenarioError:
        hint = did_you_mean(text, list(self.labels) + self.db.names())
        return self.fail(line, f"unknown card or label {text!r}{hint}")

    def _prefer_first(self, hits: list[int], player: int) -> bool:
        st = self.game.state
        a, b = st.objects[hits[0]], st.objects[hits[1]]
        return (a.controller == player, not a.tapped) > (b.controller == player, not b.tapped)


def _alike(a: Obj, b: Obj) -> bool:
    """Objects no expectation or choice could tell apart."""
    return (a.card, a.zone, a.controller, a.tapped, a.counters, a.damage, a.attached_to) == \
        (b.card, b.zone, b.controller, b.tapped, b.counters, b.damage, b.attached_to)
