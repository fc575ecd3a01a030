"""Copying objects (707), as far as layer 1 needs it: the copiable values of an object (613.2c, 707.2).

A copy effect (``copy_of`` in a ``continuous`` effect of a card file) makes an object a copy of
another: in layer 1a its characteristics become the original's copiable values — the values printed
on it (or its alternative characteristics, a face-down permanent's) as modified by copy effects that
apply to it, but not by other effects (707.2, 707.2a) — and effects of later layers still apply to
the copy.  The values are taken as the effect begins: changing the original later does not change
the copy (707.2b).
"""
from __future__ import annotations

from dataclasses import replace as dc_replace

from .carddefs import CardDef
from .characteristics import statics_of_kind_on_battlefield
from .continuous import COPIABLE_VALUES, Continuous, affects, new_timestamp
from .effects import Resolution, effect
from .errors import IllegalAction
from .filters import matches
from .layers import effects_in_force
from .printed import base
from .registry import EN, applied, enforces
from .state import BATTLEFIELD, STACK, object_target
from .targets import is_legal_target
from .zones import AFTER_MOVE


@enforces(EN + "707.1", EN + "707.2", EN + "707.2a", EN + "707.2b", "613.2c")
def copiable_values(game, original, depth: int = 0) -> CardDef:
    """The copiable values of ``original`` now: its own values after layer 1 (another copy effect on it included),
    fixed from now on (707.2b)."""
    applied(EN + "707.1")
    applied(EN + "707.2")
    applied(EN + "707.2a")
    applied(EN + "707.2b")
    applied("613.2c")
    card = base(game, original)
    if depth > 5:
        return card
    for eff in effects_in_force(game).by_layer.get("1a", ()):
        if affects(game, eff, original, card):
            card = eff.parts["1a"]["copy_of"]
    return card


@enforces("616.1c", "614.1c", "614.12", "614.12a", EN + "707.5")
def enters_as_copy(game, obj, queue: list | None) -> CardDef | None:
    """What ``obj`` enters the battlefield as a copy of, if anything: its own "you may have it enter as a copy of
    …" (the choice is made before it enters, 614.12a, from ``choose:``; ``nothing`` declines) or another
    permanent's "… enter as a copy of [this]".  A copy effect is chosen before any other replacement effect for
    entering (616.1c), so what the permanent enters with is then the copy's (Verrosteter Wachposten enters
    untapped as a copy of Wesen der Wildnis)."""
    st = game.state
    options: list = []  # (the original, why)
    own = [s for s in as_it_would_exist(game, obj).statics if s.kind == "enters_as_copy"]
    for source, static in statics_of_kind_on_battlefield(game, "replace"):
        p = static.params
        if p.get("how") == "enter_as_copy" and source.id != obj.id and source.controller == obj.controller and \
                matches(game, obj, p["objects"], source.controller, source.id, ch=base(game, obj), any_zone=True):
            options.append(source)
    if own:
        flt = own[0].params["of"]
        candidates = [oid for oid in st.battlefield if oid != obj.id
                      and matches(game, st.objects[oid], flt, obj.controller, obj.id)]
        pick = queue.pop(0) if queue else "nothing"
        applied("614.1c")
        applied("614.12")
        applied("614.12a")  # chosen before it enters
        if pick != "nothing":
            found = game.namer(pick, candidates) if game.namer is not None else next(
                (c for c in candidates if st.objects[c].card == pick), None)
            if found is None:
                raise IllegalAction("614.12a", f"{pick!r} is not a creature {obj.card} may enter as a copy of")
            options.insert(0, st.objects[found])
    if not options:
        return None
    applied("616.1c")  # a copy effect for entering is chosen before the other effects for entering
    applied(EN + "707.5")
    return copiable_values(game, options[0])


@enforces("614.12")
def as_it_would_exist(game, obj) -> CardDef:
    """The characteristics of ``obj`` as it would exist on the battlefield: its own static abilities and the
    continuous effects that already exist and would apply to it (614.12: Humility takes Clone's ability to enter
    as a copy away before it could apply)."""
    applied("614.12")
    probe = obj.copy()
    probe.zone = BATTLEFIELD
    return game.characteristics(probe)


@enforces(EN + "707.5")
def becomes_copy_as_it_enters(game, new, card: CardDef) -> None:
    """The permanent enters as a copy: a copy effect from the moment it enters (layer 1a)."""
    applied(EN + "707.5")
    st = game.state
    st.effects.append(Continuous({"1a": {"copy_of": card}}, new_timestamp(st), new.controller, new.card or "",
                                 new.id, new.uid, frozenset({new.id}), None, False, "indefinite"))


COPIABLE_VALUES[:] = [copiable_values]


@effect("copy_spell", required=("what",), optional=("new_targets",))
@enforces(EN + "707.10", EN + "707.10c", "601.2b")
def copy_spell(ctx: Resolution, spec: dict) -> None:
    """Put a copy of a spell on the stack under your control: it copies the choices made as the spell was cast —
    its modes above all, which cannot be chosen anew (601.2b, 707.10) — and it is not cast.  ``new_targets``: for
    each target, ``choose:`` a new one (legal for that instance of "target") or ``keep`` it (707.10c).  Off the
    stack it ceases to exist (:func:`copies_cease`)."""
    st = ctx.state
    for original in ctx.objects(spec["what"]):
        if original.zone != STACK or original.ability is not None or original.ann is None:
            continue
        applied(EN + "707.10")
        applied("601.2b")  # the modes were chosen as the original was cast; the copy has the same
        copy = st.new_object(original.card, ctx.controller, STACK, controller=ctx.controller)
        copy.face = original.face
        copy.memory["copy_of_spell"] = original.uid
        targets = dict(original.ann.targets)
        if spec.get("new_targets"):
            targets = _new_targets(ctx, copy, original, targets)
        copy.ann = dc_replace(original.ann, targets=targets)


def _new_targets(ctx: Resolution, copy, original, targets: dict) -> dict:
    applied(EN + "707.10c")
    game, st = ctx.game, ctx.state
    ab = game.characteristics(original).spell
    slots = {s.name: s for s in ab.slots(original.ann.modes)} if ab is not None else {}
    out = {}
    for name, chosen in targets.items():
        pick = ctx.queue.pop(0) if ctx.queue else "keep"
        if pick == "keep" or name not in slots:
            out[name] = chosen
            continue
        candidates = [oid for oid, o in st.objects.items()
                      if is_legal_target(game, slots[name], object_target(oid), ctx.controller, copy)]
        found = ctx._resolve(pick, candidates)
        if found is None:
            raise IllegalAction("608.2d", f"{pick!r} is not a legal new target for {name!r}")
        out[name] = (object_target(found),)
    return out


@enforces(EN + "707.10a")
def copies_cease(game, events: list) -> None:
    """A copy of a spell that left the stack (resolved, countered) ceases to exist (707.10a)."""
    st = game.state
    for e in events:
        if e.before is not None and "copy_of_spell" in e.before.memory and e.obj in st.objects:
            applied(EN + "707.10a")
            st.remove(e.obj)


AFTER_MOVE.append(copies_cease)
