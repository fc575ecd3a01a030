"""Static abilities the casting rules consult: cost changes and prohibitions.

Static abilities of permanents on the battlefield apply to spells on the stack
(609.2: a spell being cast is always on the stack); a spell's own cost
abilities ("this spell costs {1} less …", affinity) apply to itself while it is
cast.  Continuous effects that change characteristics (613) will have their
own module; these statics only answer the questions 601.2f and 601.3 ask.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import conditions
from .characteristics import statics_on_battlefield
from .costs import ZERO, ManaCost
from .filters import matches
from .registry import applied, enforces
from .state import BATTLEFIELD, Obj


@dataclass(frozen=True)
class CostChange:
    source: str  # card name, for the explanation
    increase: ManaCost = ZERO
    reduce: ManaCost = ZERO
    minimum: int | None = None


def statics_of_kind(game, kind: str):
    """(source object, static) for each static ability of ``kind`` on the battlefield."""
    return _statics(game, kind)


def _statics(game, kind: str):
    """(source object, static) for each static ability of ``kind`` on the battlefield, and each continuous
    effect of that kind a resolved spell or ability created (611.2a)."""
    st = game.state
    for oid, s in statics_on_battlefield(game).get(kind, ()):
        yield st.objects[oid], s
    for e in st.effects:
        if isinstance(e, tuple) and e[0].kind == kind:
            s, card, controller = e
            yield Obj(-1, -1, card, controller, controller, ""), s


def _condition_holds(game, source, cond: tuple) -> bool:
    return conditions.holds(game, cond, source, source.controller)


def _times(game, source, static) -> int:
    if static.params.get("per_attacker"):
        return attacked_this_turn(game, source.controller)
    per = static.params.get("per")
    if per is None:
        return 1
    st = game.state
    return sum(1 for oid in st.battlefield if matches(game, st.objects[oid], per, source.controller, source.id))


@enforces("608.2i")
def attacked_this_turn(game, player: int) -> int:
    """How many creatures ``player`` declared as attackers this turn — as they were then: a creature that has
    since left the battlefield, or stopped being a creature, still counts (an effect that looks back in time)."""
    applied("608.2i")
    return sum(1 for _, p in game.state.attacked if p == player)


@enforces("609.2")
def cost_changes(game, spell) -> list[CostChange]:
    """Cost increases, reductions and minimums that apply to ``spell`` while it is on the stack."""
    out = []
    own = game.characteristics(spell).statics if spell.card else ()
    candidates = [(spell, s) for s in own if s.kind == "cost" and s.params.get("applies") == "self"]
    candidates += [(o, s) for o, s in _statics(game, "cost") if s.params.get("applies") != "self"]
    for source, s in candidates:
        p = s.params
        if source is not spell and "spells" in p and not matches(game, spell, p["spells"], source.controller):
            continue
        if source is not spell and "spells" not in p and spell.ability is not None:
            continue  # "spells cost …" does not change activation costs
        if not _condition_holds(game, source, p.get("condition", ())):
            continue
        if source is not spell:
            applied("609.2")  # a static ability of a permanent applies to a spell: it is on the stack
        n = _times(game, source, s)
        inc = _multiply(p.get("increase", ZERO), n)
        red = _multiply(p.get("reduce", ZERO), n)
        out.append(CostChange(game.characteristics(source).name, inc, red, p.get("minimum")))
    return out


def _multiply(cost: ManaCost, n: int) -> ManaCost:
    if n == 1 or cost == ZERO:
        return cost
    return ManaCost(cost.generic * n, tuple(c * n for c in cost.colored), cost.x * n, cost.hybrid * n)


def loyalty_changes(game, source_obj) -> list[tuple[str, int]]:
    """Additional loyalty costs ("… kosten beim Aktivieren zusätzlich [+1]") for this permanent's abilities."""
    out = []
    for obj, s in _statics(game, "loyalty_cost"):
        flt = s.params.get("abilities_of")
        if flt is None or matches(game, source_obj, flt, obj.controller):
            out.append((game.characteristics(obj).name, int(s.params.get("increase", 0))))
    return out


def prohibitions(game, player: int, zone: str = BATTLEFIELD):
    """Static abilities that forbid ``player`` to cast spells with certain characteristics: (source, filter)."""
    for obj, s in _statics(game, "prohibit_cast"):
        who = s.params.get("players", "opponents")
        applies = who == "all" or (who == "you") == (obj.controller == player)
        if applies:
            yield obj, s.params.get("spells")


def activation_prohibitions(game, player: int):
    """Static abilities that forbid ``player`` to activate abilities ("Activated abilities of artifacts can't be
    activated"): (source, criteria of the objects whose abilities, whether mana abilities too)."""
    for obj, s in _statics(game, "prohibit_activate"):
        who = s.params.get("players", "all")
        if who == "all" or (who == "you") == (obj.controller == player):
            yield obj, s.params.get("abilities_of"), s.params.get("mana_abilities", True)


@enforces("608.3e", "614.17", "614.17d")
def cant_enter(game, obj, ch=None) -> bool:
    """Objects like this (with characteristics ``ch``: what it would enter as) cannot enter the battlefield
    ("Lands can't enter the battlefield")."""
    for source, s in _statics(game, "cant_enter"):
        if matches(game, obj, s.params["objects"], source.controller, ch=ch or game.characteristics(obj),
                   any_zone=True):
            applied("608.3e")
            applied("614.17")  # a "can't" effect: not a replacement effect
            applied("614.17d")
            return True
    return False
