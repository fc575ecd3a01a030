"""Other objects that change zones while a permanent enters the battlefield (614.13, 614.14).

Two ways a permanent's own replacement effect for entering moves other objects, both chosen by its controller
before it enters (614.12a, step option ``choose:`` — one entry per effect, cards separated by ``,``, or
``nothing``):

* ``exile`` in an ``enters`` static: "As [this] enters, exile any number of [cards] from your graveyard";
  what it exiled is remembered under ``link`` for the linked ability that refers to "the exiled cards"
  (614.14; a characteristic-defining ``cda`` power ``{ exiled_total = "power", link = … }``);
* devour N (keyword ``devour:N``, 702.82a): "As [this] enters, you may sacrifice any number of creatures. It
  enters with N times that many +1/+1 counters."  A permanent with two devour abilities applies each.

The object that becomes the permanent and any other object entering the battlefield at the same time can't be
chosen (614.13a); the same object can't be chosen twice while the effects for one permanent entering apply
(614.13b).
"""
from __future__ import annotations

from .effects import Resolution, effect
from .errors import IllegalAction
from .filters import matches
from .registry import EN, applied, enforces
from .state import EXILE, GRAVEYARD
from .zones import ENTERING, ENTERS_KEYS, move_all


def _picked(game, obj, candidates: tuple[list[int], dict], queue: list | None, what: str) -> list[int]:
    """The objects the controller chose for one effect (``choose: a, b`` or ``nothing``); ``candidates``: those
    that may be chosen, and those that may not with the rule that says so."""
    allowed, excluded = candidates
    item = queue.pop(0) if queue else "nothing"
    if item == "nothing":
        return []
    picked: list[int] = []
    for name in (n.strip() for n in item.split(",")):
        oid = _named(game, name, [c for c in allowed if c not in picked])
        if oid is None:
            barred = _named(game, name, list(excluded))
            rule = excluded[barred] if barred is not None else "614.13"
            raise IllegalAction(rule, f"{obj.card} enters: {name} can't be chosen to {what}")
        picked.append(oid)
    return picked


def _named(game, name: str, pool: list[int]) -> int | None:
    if game.namer is not None:
        return game.namer(name, pool)
    return next((c for c in pool if game.state.objects[c].card == name), None)


@enforces("614.13", "614.13a", "614.13b")
def choosable(game, obj, candidates: list[int], entering: tuple, chosen: set) -> tuple[list[int], dict]:
    """The objects that may be chosen to change zones while ``obj`` enters: not the object that becomes it nor
    another entering at the same time (614.13a), nor one already chosen for another of its effects (614.13b).
    Returns them, and the others with the rule that excludes each."""
    applied("614.13")
    st = game.state
    also = {b.uid for b in entering} | {obj.uid}
    allowed, excluded = [], {}
    for oid in candidates:
        if st.objects[oid].uid in also:
            applied("614.13a")
            excluded[oid] = "614.13a"
        elif oid in chosen:
            applied("614.13b")
            excluded[oid] = "614.13b"
        else:
            allowed.append(oid)
    return allowed, excluded


@enforces("614.13", "614.14", "607.2a")
def exile_as_it_enters(game, obj, params: dict, queue: list | None, entering: tuple, chosen: set) -> None:
    """"As [this] enters, exile any number of [cards] from your graveyard": the cards exiled by this replacement
    are remembered for the ability linked to it (614.14).  ``params["exile"]``: the criteria of the cards."""
    st = game.state
    spec = params["exile"]
    graveyard = [oid for oid in st.players[obj.controller].graveyard
                 if matches(game, st.objects[oid], spec, obj.controller, obj.id, any_zone=True)]
    picked = _picked(game, obj, choosable(game, obj, graveyard, entering, chosen), queue, "exile")
    chosen.update(picked)
    link = params.get("link", "exiled")
    obj.memory[link] = ()
    if not picked:
        return
    applied("614.13")
    applied("614.14")
    applied("607.2a")
    obj.memory[link] = tuple(o.uid for o in move_all(game, picked, EXILE))


@enforces(EN + "702.82a", "614.13")
def devour(game, obj, ch, queue: list | None, entering: tuple, chosen: set) -> None:
    """Devour N (each devour ability it has, its own and one an effect gave the spell it was, 400.7a): for each,
    the creatures to sacrifice are chosen as it enters — no creature for two of them (614.13b) — then
    sacrificed; it enters with N +1/+1 counters for each devoured by devour N."""
    gains = obj.memory.get("gains")
    amounts = devours(ch.keywords | frozenset(gains) if gains else ch.keywords)
    if not amounts:
        return
    st = game.state
    creatures = [oid for oid in st.battlefield if oid != obj.id and st.objects[oid].controller == obj.controller
                 and "creature" in game.characteristics(st.objects[oid]).types]
    counters, devoured = 0, []
    for n in amounts:
        applied(EN + "702.82a")
        picked = _picked(game, obj, choosable(game, obj, creatures, entering, chosen), queue, "sacrifice")
        chosen.update(picked)
        devoured += picked
        counters += n * len(picked)
    if devoured:
        applied("614.13")
        move_all(game, devoured, GRAVEYARD)
        obj.counters["+1/+1"] = obj.counters.get("+1/+1", 0) + counters


DEVOUR = "devour:"


def devours(keywords) -> list[int]:
    """The N of each devour N the permanent has, in order."""
    return sorted(int(k[len(DEVOUR):]) for k in keywords if k.startswith(DEVOUR))


@effect("grant", required=("what", "keywords"))
@enforces("610.1")
def grant(ctx: Resolution, spec: dict) -> None:
    """"[The spell] gains devour 5": keywords for a spell on the stack (not a layered effect: it changes only what
    the permanent enters with, 400.7a)."""
    applied("610.1")
    for obj in ctx.objects(spec["what"]):
        obj.memory["gains"] = tuple(obj.memory.get("gains", ())) + tuple(spec["keywords"])


@enforces(EN + "400.7a")
def keeps_gained(before, new) -> None:
    """An effect from a triggered ability that gave a permanent spell an ability continues to apply to the
    permanent that spell becomes (400.7a)."""
    if "gains" in before.memory:
        applied(EN + "400.7a")
        new.memory["gains"] = before.memory["gains"]


ENTERS_KEYS["exile"] = exile_as_it_enters
ENTERING.append(devour)
