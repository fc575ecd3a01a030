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

from .errors import IllegalAction
from .filters import matches
from .registry import applied, enforces
from .state import EXILE, GRAVEYARD

EN = "en-2024-11-08/"


def _picked(game, obj, candidates: list[int], queue: list | None, what: str) -> list[int]:
    """The objects the controller chose for one effect (``choose: a, b`` or ``nothing``)."""
    item = queue.pop(0) if queue else "nothing"
    if item == "nothing":
        return []
    picked: list[int] = []
    for name in (n.strip() for n in item.split(",")):
        pool = [c for c in candidates if c not in picked]
        oid = game.namer(name, pool) if game.namer is not None else \
            next((c for c in pool if game.state.objects[c].card == name), None)
        if oid is None:
            raise IllegalAction("614.13a", f"{obj.card} enters: {name} can't be chosen to {what}")
        picked.append(oid)
    return picked


@enforces("614.13", "614.13a", "614.13b")
def choosable(game, obj, candidates: list[int], entering: tuple, chosen: set) -> list[int]:
    """The objects that may be chosen to change zones while ``obj`` enters: not the object that becomes it nor
    another entering at the same time (614.13a), nor one already chosen for another of its effects (614.13b)."""
    applied("614.13")
    st = game.state
    also = {b.uid for b in entering} | {obj.uid}
    out = []
    for oid in candidates:
        if st.objects[oid].uid in also:
            applied("614.13a")
        elif oid in chosen:
            applied("614.13b")
        else:
            out.append(oid)
    return out


@enforces("614.13", "614.14", "607.2a")
def exile_as_it_enters(game, obj, spec, queue: list | None, entering: tuple, chosen: set) -> tuple:
    """"As [this] enters, exile any number of [cards] from your graveyard": the cards exiled by this replacement
    are remembered for the ability linked to it (614.14).  ``spec``: the criteria of the cards."""
    from .zones import move_all
    st = game.state
    graveyard = [oid for oid in st.players[obj.controller].graveyard
                 if matches(game, st.objects[oid], spec, obj.controller, obj.id, any_zone=True)]
    picked = _picked(game, obj, choosable(game, obj, graveyard, entering, chosen), queue, "exile")
    chosen.update(picked)
    if not picked:
        return ()
    applied("614.13")
    applied("614.14")
    applied("607.2a")
    return tuple(o.uid for o in move_all(game, picked, EXILE))


@enforces(EN + "702.82a", "614.13")
def devour(game, obj, n: int, queue: list | None, entering: tuple, chosen: set) -> None:
    """Devour N: sacrifice any number of other creatures as it enters; it enters with N +1/+1 counters for each."""
    from .zones import move_all
    st = game.state
    creatures = [oid for oid in st.battlefield if oid != obj.id and st.objects[oid].controller == obj.controller
                 and "creature" in game.characteristics(st.objects[oid]).types]
    picked = _picked(game, obj, choosable(game, obj, creatures, entering, chosen), queue, "sacrifice")
    applied(EN + "702.82a")
    chosen.update(picked)
    if picked:
        applied("614.13")
        move_all(game, picked, GRAVEYARD)
        obj.counters["+1/+1"] = obj.counters.get("+1/+1", 0) + n * len(picked)


@enforces("614.14", "604.3")
def exiled_total(game, obj, value: dict) -> int:
    """"Its power is equal to the total power of the exiled cards": only the cards in exile that were put there
    by the linked replacement effect (614.14) count."""
    applied("604.3")
    uids = set(obj.memory.get(value["link"], ()))
    if not uids:
        return 0
    applied("614.14")
    st = game.state
    which = value["exiled_total"]
    return sum(getattr(game.characteristics(st.objects[oid]), which) or 0 for oid in st.exile
               if st.objects[oid].uid in uids)


DEVOUR = "devour:"


def devours(keywords) -> list[int]:
    """The N of each devour N the permanent has, in order."""
    return sorted(int(k[len(DEVOUR):]) for k in keywords if k.startswith(DEVOUR))
