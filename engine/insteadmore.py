"""More replacement effects of card files (614.1a, 614.1c, 614.12), each a handler of :mod:`engine.replacement`:

==========================  ====================================================================
``plus_one``                counters an effect would put: that many plus one (614.1a)
``additional_counter``      a permanent matching ``objects`` enters with an additional counter of
                            ``counter`` (614.1c, 122.6)
``win_instead_of_draw``     you would draw from an empty library: you win the game instead (614.1a,
                            104.2b)
``exile_and_token``         a card that would go to a graveyard is exiled and you create the token
                            ``token`` (one replacement, two results: 614.1a)
``counters_instead``        damage to an object matching ``to`` (``noncombat``: only noncombat damage)
                            is not dealt; that many ``counter`` counters are put on it instead (614.1a)
==========================  ====================================================================

"Enters tapped unless …" is ``enters_tapped`` with an ``unless`` condition (:mod:`engine.instead`).
"""
from __future__ import annotations

from .filters import matches
from .registry import EN, applied, enforces
from .replacement import Replacement, applies_when, handler
from .state import BATTLEFIELD, EXILE, GRAVEYARD


def _kinds(r: Replacement, ev: dict) -> list[str]:
    """The kinds of counter in the event the effect is about: "… +1/+1 counters …" that kind only, else each kind
    ("that many plus one of each of those kinds")."""
    want = r.params.get("counter")
    return [k for k, n in ev["counters"].items() if n > 0 and want in (None, k)]


@handler("plus_one")
@enforces("614.1a")
def plus_one(game, r: Replacement, ev: dict) -> dict:
    """"… that many plus one" (counters of each kind it is about)."""
    applied("614.1a")
    counters = dict(ev["counters"])
    for kind in _kinds(r, ev):
        counters[kind] += 1
    return {**ev, "counters": counters}


@applies_when("plus_one")
def _counters_on_yours(game, r: Replacement, ev: dict) -> bool:
    obj = game.state.objects.get(ev["obj"])
    return obj is not None and obj.controller == r.controller and bool(_kinds(r, ev))


@handler("additional_counter")
@enforces("614.1c", EN + "122.6")
def additional_counter(game, r: Replacement, ev: dict) -> dict:
    """"Each other creature you control enters with an additional +1/+1 counter on it": one more counter in the
    event of entering with counters (122.6) — the same event the replacement effects for counters modify, each once
    (614.5), not a second one."""
    applied("614.1c")
    applied(EN + "122.6")
    kind = r.params.get("counter", "+1/+1")
    return {**ev, "counters": {**ev.get("counters", {}), kind: ev.get("counters", {}).get(kind, 0) + 1}}


@applies_when("additional_counter")
def _other_enters(game, r: Replacement, ev: dict) -> bool:
    obj = game.state.objects.get(ev["obj"])
    return obj is not None and obj.id != r.source_id and obj.zone == BATTLEFIELD and "counters" in ev


@handler("win_instead_of_draw")
@enforces("614.1a", EN + "104.2b")
def win_instead_of_draw(game, r: Replacement, ev: dict) -> None:
    """"If you would draw a card while your library has no cards in it, you win the game instead"."""
    from .players import win_game  # players moves objects (zones): imported when used
    applied("614.1a")
    win_game(game, r.controller)
    return None


@applies_when("win_instead_of_draw")
def _you_draw_from_empty(game, r: Replacement, ev: dict) -> bool:
    return ev["player"] == r.controller and not game.state.players[r.controller].library


@handler("exile_and_token")
@enforces("614.1a", EN + "111.1")
def exile_and_token(game, r: Replacement, ev: dict) -> dict:
    """"… exile it instead and create a 2/2 black Zombie token": the card is exiled, and the effect's controller
    creates the token (111.1) — one replacement, both parts."""
    from .zones import created  # zones asks the replacement effects: imported when used
    applied("614.1a")
    applied(EN + "111.1")
    token = r.params["_token"]
    if token.name not in game.db:
        game.db.add(token)
    made = [game.state.new_object(token.name, r.controller, BATTLEFIELD, token=True)]
    created(game, made, None)
    return {**ev, "zone": EXILE}


@applies_when("exile_and_token")
def _to_graveyard(game, r: Replacement, ev: dict) -> bool:
    return ev["zone"] == GRAVEYARD


@handler("counters_instead")
@enforces("614.1a", "614.6")
def counters_instead(game, r: Replacement, ev: dict) -> None:
    """"If a source you control would deal noncombat damage to a creature an opponent controls, put that many -1/-1
    counters on that creature instead": the damage is never dealt (614.6); the counters are put, an event of its own
    that counter replacements see (engine.zones.put_counters_on)."""
    from .zones import put_counters_on
    applied("614.1a")
    applied("614.6")
    obj = game.state.objects.get(ev["target"][1])
    if obj is not None:
        put_counters_on(game, obj, r.params["counter"], ev["amount"])
    return None


@applies_when("counters_instead")
def _damage_to_matching(game, r: Replacement, ev: dict) -> bool:
    kind, ref = ev["target"]
    obj = game.state.objects.get(ref) if kind == "O" else None
    if obj is None or (r.params.get("noncombat") and ev["combat"]):
        return False
    flt = r.params.get("to")
    return flt is None or matches(game, obj, flt, r.controller, r.source_id)
