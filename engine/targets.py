"""Targets: choosing them (601.2c) and checking them again on resolution (608.2b).

A card declares one :class:`~engine.cards.TargetSlot` per instance of the word
"target" ("… deiner Wahl").  Within a slot the targets are distinct; the same
object or player may be chosen once for each slot (unless a slot says
``distinct_from``, as "another target" does).
"""
from __future__ import annotations

from .errors import IllegalAction
from .filters import matches
from .playereffects import player_hexproof
from .registry import EN, applied, enforces
from .state import Target


def slot_count(slot, x: int) -> tuple[int, int]:
    """How many targets a slot takes: (min, max)."""
    if slot.count == "X":
        return (x, x)
    if isinstance(slot.count, tuple):
        return slot.count
    return (slot.count, slot.count)


def source_colors(game, obj) -> frozenset:
    """Colours of what is targeting: the spell itself, or an ability's source (last known)."""
    if obj.card is not None:
        return game.characteristics(obj).colors
    return game.db[obj.source_card].colors if obj.source_card else frozenset()


@enforces(EN + "702.16b", EN + "702.11b", EN + "702.18a")
def is_legal_target(game, slot, target, controller: int, source, x: int = 0) -> bool:
    """Does ``target`` meet the criteria of ``slot`` for a spell or ability controlled by ``controller``?"""
    kind, ref = target
    st = game.state
    if kind == "P":
        if slot.player is None or ref >= len(st.players) or st.players[ref].lost:
            return False
        if player_hexproof(game, ref, controller):
            return False
        return slot.player == "any" or (ref == controller) == (slot.player == "you")
    obj = st.objects.get(ref)
    if obj is None or slot.objects is None:
        return False
    if not matches(game, obj, slot.objects, controller, source.ability[0] if source.ability else source.id, x):
        return False
    if obj.id == source.id:
        return False  # a spell or ability cannot target itself
    keywords = game.keywords(obj)
    if any(f"protection:{c}" in keywords for c in source_colors(game, source)):
        applied(EN + "702.16b")
        return False
    if "shroud" in keywords:
        applied(EN + "702.18a")
        return False
    if "hexproof" in keywords and obj.controller != controller:
        applied(EN + "702.11b")
        return False
    return True


def active_slots(ab, ann) -> list:
    """The target slots of the chosen modes; slots tied to an unpaid cost are not targets (601.2c)."""
    paid = set(ann.optional) | set(ann.chosen) | ({ann.alternative} if ann.alternative else set())
    return [s for s in ab.slots(ann.modes or (0,)) if s.if_paid is None or s.if_paid in paid]


@enforces("601.2c")
def choose_targets(game, obj, ab, choices) -> None:
    """Announce a legal target for each instance of "target"; distinct within one instance."""
    ann = obj.ann
    slots = active_slots(ab, ann)
    if slots:
        applied("601.2c")
    names = {s.name for s in slots}
    unknown = set(choices.targets) - names
    if unknown:
        known = ", ".join(sorted(names)) or "none"
        raise IllegalAction("601.2c", f"{', '.join(sorted(unknown))}: not a target of this "
                                      f"{'spell' if obj.card else 'ability'} as announced (targets: {known})")
    chosen: dict[str, tuple[Target, ...]] = {}
    for slot in slots:
        picked = tuple(choices.targets.get(slot.name, ()))
        lo, hi = slot_count(slot, ann.x)
        if not lo <= len(picked) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise IllegalAction("601.2c", f"target {slot.name!r} needs {want} target(s), {len(picked)} chosen")
        if len(set(picked)) != len(picked):
            raise IllegalAction("601.2c", f"the same target was chosen twice for one instance of "
                                          f"\"target\" ({slot.name!r})")
        for t in picked:
            if not is_legal_target(game, slot, t, obj.controller, obj, ann.x):
                raise IllegalAction("601.2c", f"{game.name_of(t)} is not a legal choice for target {slot.name!r}")
        for other in slot.distinct_from:
            clash = set(picked) & set(chosen.get(other, ()))
            if clash:
                raise IllegalAction("601.2c", f"target {slot.name!r} must differ from target {other!r}")
        chosen[slot.name] = picked
    ann.targets = chosen


@enforces("601.2d")
def divide(game, obj, ab, choices) -> None:
    """Announce how an amount is divided among targets; each target gets at least one."""
    ann = obj.ann
    slots = [s for s in active_slots(ab, ann) if s.divide is not None]
    if not slots:
        if choices.division:
            raise IllegalAction("601.2d", "nothing of this spell or ability is divided")
        return
    applied("601.2d")
    division = {}
    for slot in slots:
        total = ann.x if slot.divide == "X" else slot.divide
        picked = ann.targets.get(slot.name, ())
        parts = {t: choices.division.get(t) for t in picked}
        if len(picked) == 1 and parts[picked[0]] is None:
            parts[picked[0]] = total
        if any(v is None for v in parts.values()):
            raise IllegalAction("601.2d", f"announce how {total} is divided among the targets of {slot.name!r}")
        if any(v < 1 for v in parts.values()):
            raise IllegalAction("601.2d", "each target must get at least one")
        if sum(parts.values()) != total:
            raise IllegalAction("601.2d", f"the division adds up to {sum(parts.values())}, not {total}")
        division.update(parts)
    ann.division = division


@enforces("608.2b")
def recheck_targets(game, obj, ab) -> tuple[dict, bool]:
    """On resolution: which targets are still legal, per slot; and whether every target is illegal."""
    ann = obj.ann
    applied("608.2b")
    legal, any_target, any_legal = {}, False, False
    for slot in active_slots(ab, ann):
        picked = ann.targets.get(slot.name, ())
        ok = [t for t in picked if is_legal_target(game, slot, t, obj.controller, obj, ann.x)]
        legal[slot.name] = ok
        any_target = any_target or bool(picked)
        any_legal = any_legal or bool(ok)
    return legal, any_target and not any_legal
