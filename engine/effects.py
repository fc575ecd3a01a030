"""Effects (609): the registry of effect kinds card files use, and what an effect sees while it resolves.

Each effect kind (:mod:`engine.oneshot` and others) is one function registered under its name with
:func:`effect`; card files are checked against this registry when they are loaded
(:mod:`engine.cardfile`), so a card can only say what the engine can do.  ``pending`` marks card
text that needs rules not implemented yet: resolving it stops with a clear message instead of doing
something wrong.

Effects refer to what they affect by words (:class:`Resolution`): a target word of the spell or
ability, a player word (``you``, ``each_opponent`` …), or — in a triggered ability — a word for
what its trigger event was about (``it``, ``that_player``, ``blocked``) or for the object the
ability is from (``self``).  They read game information when they are applied (608.2h), affect only
the still-legal targets of their target word (608.2b) and do as much as possible (609.3).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .devotion import devotion
from .errors import IllegalAction
from .filters import Filter, bind, matches
from .lastknown import Known, known, source_memory
from .registry import applied, enforces
from .state import object_target, player_target

#: player words an effect may name instead of a target word
PLAYER_WORDS = ("you", "each_opponent", "each_player", "each_other_player")
#: words a triggered ability's effects may use for what its trigger event was about
EVENT_WORDS = ("it", "that_player", "blocked", "sacrificed")
#: words any ability's effects may use for the object it is from
SELF_WORDS = ("self",)
#: "linked:NAME" — the objects a linked ability of the same object moved (607.2a, 607.2c)
LINKED = "linked:"
#: prefix of a player word naming the controller of a target object ("controller:kreatur": "its controller")
CONTROLLER_OF = "controller:"
ZONE_WORDS = ("hand", "graveyard", "exile", "battlefield", "library_top", "library_bottom")


@dataclass(frozen=True)
class EffectKind:
    name: str
    fn: Callable[["Resolution", dict], None]
    required: tuple[str, ...]
    optional: tuple[str, ...]
    doc: str


EFFECTS: dict[str, EffectKind] = {}


def effect(name: str, required: tuple[str, ...] = (), optional: tuple[str, ...] = ()):
    """Register an effect kind for card files."""

    def register(fn):
        EFFECTS[name] = EffectKind(name, fn, required, optional, (fn.__doc__ or "").strip().split("\n")[0])
        return fn

    return register


# -- the resolution context ---------------------------------------------------------------------------------------

class Resolution:
    """What an effect needs while a spell or ability resolves."""

    def __init__(self, game, obj, ab, legal: dict, queue: list):
        self.game = game
        self.state = game.state
        self.obj = obj
        self.ab = ab
        self.controller = obj.controller
        self.ann = obj.ann
        self.legal = legal
        self.queue = queue
        self.source_id = obj.ability[0] if obj.ability else obj.id
        self.trigger = obj.trigger
        #: what parts of the resolution remember for later parts (a reflexive trigger, "that card" …)
        self.memory: dict = dict(obj.trigger.memory) if obj.trigger is not None else {}
        #: a target an earlier part of the effect moved -> the object it became there (400.7j); ``legal`` keeps
        #: the targets as they were targeted, where the effect expects them for information (608.2h)
        self.followed: dict = {}

    # references
    def players(self, who) -> list[int]:
        st = self.state
        if who == "you":
            return [self.controller] if st.players[self.controller].in_game else []
        if who in ("each_opponent", "each_other_player"):
            return st.opponents(self.controller)
        if who == "each_player":
            return st.in_turn_order(st.active)
        if who == "that_player":
            event = self.trigger.event if self.trigger is not None else None
            return [event.player] if event is not None and event.player is not None else []
        if who.startswith(CONTROLLER_OF):  # "its controller": information about the object (608.2h)
            return [k.obj.controller for k in information(self, who[len(CONTROLLER_OF):])]
        return [ref for kind, ref in self.legal.get(who, ()) if kind == "P"]

    def targets(self, ref) -> list:
        if ref in PLAYER_WORDS or ref == "that_player":
            return [player_target(p) for p in self.players(ref)]
        if ref in EVENT_WORDS or ref in SELF_WORDS:
            return [object_target(oid) for oid in self._event_objects(ref)]
        if ref.startswith(LINKED):
            return [object_target(oid) for oid in linked_objects(self, ref[len(LINKED):])]
        if ref in self.memory:
            return [object_target(o.id) for o, _ in self.memory[ref] if o.id in self.state.objects]
        return [self.follow(t) for t in self.legal.get(ref, ())]

    def follow(self, target):
        """A target where it is now: the object it became if an earlier part of the effect moved it (400.7j)."""
        while target in self.followed:
            target = self.followed[target]
        return target

    def _event_objects(self, ref: str) -> list[int]:
        if ref == "self":
            oid = self.source_object_id()
            return [oid] if oid is not None else []
        t = self.trigger
        if t is None:
            return []
        if ref == "it" and t.bound is not None:
            return bound_object(self, t.bound)
        return event_object(self, ref)

    def source_object_id(self) -> int | None:
        """The object the ability is from, where it is now (603.6 for a zone-change trigger about itself)."""
        if self.obj.ability is None:
            return self.obj.id
        return find_source(self)

    def objects(self, ref) -> list:
        return [self.state.objects[oid] for kind, oid in self.targets(ref) if kind == "O" and oid in self.state.objects]

    def amount(self, value) -> int:
        if isinstance(value, int):
            return value
        if value == "X":
            return self.ann.x
        base = {k: v for k, v in value.items() if k not in ("times", "plus")}
        return read_game_information(self, base) * value.get("times", 1) + value.get("plus", 0)

    # choices made while resolving (608.2d)
    def choose(self, player: int, candidates: list[int], count: int, what: str) -> list[int]:
        """``count`` of ``candidates`` chosen by ``player``, taken from the step's ``choose:`` list."""
        count = min(count, len(candidates))
        if not self.queue:
            if count == len(candidates):
                return list(candidates)
            names = "; ".join(self.game.name_of(object_target(c)) for c in candidates)
            raise IllegalAction("608.2d", f"{self.state.players[player].name} must choose {count} to {what} "
                                          f"among: {names} (add 'choose: …' to the step)")
        picked: list[int] = []
        for _ in range(count):
            if not self.queue:
                raise IllegalAction("608.2d", f"choose {count} to {what}; only {len(picked)} given")
            item = self.queue.pop(0)
            oid = self._resolve(item, [c for c in candidates if c not in picked])
            if oid is None:
                raise IllegalAction("608.2d", f"{item} cannot be chosen to {what}: not a legal option")
            picked.append(oid)
        return picked

    def choose_option(self, options: list[str], what: str) -> str:
        if not self.queue:
            raise IllegalAction("608.2d", f"choose how to {what}: {' or '.join(options)} (add 'choose: …')")
        item = self.queue.pop(0)
        if item not in options:
            raise IllegalAction("608.2d", f"{item!r} is not an option to {what} ({' or '.join(options)})")
        return item

    def _resolve(self, item, candidates: list[int]):
        if isinstance(item, int):
            return item if item in candidates else None
        namer = self.game.namer
        if namer is not None:
            return namer(item, candidates)
        for c in candidates:
            if self.state.objects[c].card == item:
                return c
        return None


@enforces("603.6", "608.2k")
def event_object(ctx: Resolution, ref: str) -> list[int]:
    """The object a triggered ability's trigger event was about — not a target, but still that object even if
    its characteristics changed (608.2k); for a zone change, the new object in the zone it moved to (603.6)."""
    event = ctx.trigger.event if ctx.trigger is not None else None
    if event is None:
        return []
    oid = event.source if ref == "blocked" else event.obj
    applied("608.2k")
    if event.kind == "zone":
        applied("603.6")
    return [oid] if oid is not None and oid in ctx.state.objects else []


@enforces("603.7c")
def bound_object(ctx: Resolution, bound: int) -> list[int]:
    """The object a delayed triggered ability refers to — still it if its characteristics changed, but not if it
    is no longer in the zone it was in (then it is a new object, and unaffected)."""
    applied("603.7c")
    return [bound] if bound in ctx.state.objects else []


@enforces("603.6")
def find_source(ctx: Resolution) -> int | None:
    """A zone-change trigger about its own source looks for the new object in the zone it moved to; if it is not
    there (it left again, or the zone is hidden), the part that would do something with it does nothing (603.6)."""
    st = ctx.state
    t = ctx.trigger
    if t is not None and t.event is not None and t.event.kind == "zone" and t.event.before is not None \
            and t.event.before.uid == t.source_uid:
        applied("603.6")
        found = t.event.obj if t.event.obj in st.objects else None
        return found if found is not None and st.objects[found].zone == t.event.to_zone else None
    return ctx.source_id if ctx.source_id in st.objects else None


@enforces("607.1", "607.1c", "607.2", "607.3")
def linked_objects(ctx: Resolution, name: str) -> list[int]:
    """"The cards exiled with [this]": only what the linked ability of this object moved, where it moved it —
    a card that left that zone since is a new object (607.1); several of them are each meant (607.3)."""
    remembered = source_memory(ctx).get(name, ())
    if not remembered:
        return []
    applied("607.1")
    applied("607.2")
    if ctx.trigger is None and ctx.obj.ability is not None and ctx.obj.abdef is not None and any(
            e.get("link") == name for m in ctx.obj.abdef.modes for e in m.effects):
        applied("607.1c")  # an ability linked to itself
    found = [o.id for o in ctx.state.objects.values() if o.ability is None and (o.uid, o.zone) in remembered]
    if len(found) > 1:
        applied("607.3")
    return found


@enforces("608.2h")
def information(ctx: Resolution, ref: str) -> list[Known]:
    """The objects a word refers to, for information about them (608.2h): each as it is now if it is still in
    the zone the effect expected it in — the zone it was targeted in, the battlefield for an ability's source and
    for the object a leaves-the-battlefield trigger is about — else as it last existed (:mod:`engine.lastknown`),
    also when an earlier part of this effect moved it (its power in exile is not "its power").  The one way
    effects read characteristics of objects that may have left."""
    if ref in ctx.memory:
        found = [k for o, ch in ctx.memory[ref] if (k := known(ctx.game, o.id, ch)) is not None]
    else:
        found = [k for oid in expected_ids(ctx, ref) if (k := known(ctx.game, oid)) is not None]
    if any(k.gone for k in found):
        applied("608.2h")
    return found


def expected_ids(ctx: Resolution, ref: str) -> list[int]:
    """The ids of the objects a word refers to where the effect expected them (an object that changed zones has a
    new id, 400.7: its old id names it as it was there)."""
    if ref == "self":
        return [ctx.source_id]
    if ref in EVENT_WORDS:
        event = ctx.trigger.event if ctx.trigger is not None else None
        if event is None:
            return []
        if ref == "it" and ctx.trigger.bound is not None:
            return [ctx.trigger.bound]
        if event.kind == "zone" and event.before is not None and event.from_zone == "battlefield":
            return [event.before.id]  # it left the battlefield: its characteristics there (603.10a)
        return event_object(ctx, ref)
    if ref.startswith(LINKED):
        return linked_objects(ctx, ref[len(LINKED):])
    return [oid for kind, oid in ctx.legal.get(ref, ()) if kind == "O"]


@enforces("608.2h")
def read_game_information(ctx: Resolution, value: dict) -> int:
    """Information from the game (a number of objects, a power, a mana value) is determined once, as the
    effect applies; from an object that is gone, as it last existed."""
    (key, arg), = value.items()
    st = ctx.state
    applied("608.2h")
    return AMOUNTS[key](ctx, st, arg)


def _count(ctx, st, arg) -> int:
    return sum(1 for oid in st.battlefield if matches(ctx.game, st.objects[oid], arg, ctx.controller, ctx.source_id))


def _greatest_power(ctx, st, arg) -> int:
    owners = ctx.players(arg)
    powers = [ctx.game.power(o) for o in (st.objects[oid] for oid in st.battlefield)
              if o.controller in owners and "creature" in ctx.game.characteristics(o).types]
    return max(powers, default=0)


def _power_of(ctx, st, arg) -> int:
    found = information(ctx, arg)
    return (found[0].power or 0) if found else 0


def _mana_value_of(ctx, st, arg) -> int:
    found = information(ctx, arg)
    return found[0].ch.mana_cost.mana_value() if found else 0


def _event_amount(ctx, st, arg) -> int:
    event = ctx.trigger.event if ctx.trigger is not None else None
    return event.amount if event is not None else 0


def _counters(ctx, st, arg) -> int:
    found = information(ctx, "self")
    return found[0].obj.counters.get(arg, 0) if found else 0


#: what an amount table may ask the game for (each checked by the card file schema)
AMOUNTS: dict[str, Callable[[Resolution, object, object], int]] = {
    "count": _count, "greatest_power": _greatest_power, "power_of": _power_of, "mana_value_of": _mana_value_of,
    "event_amount": _event_amount, "counters": _counters,
    "colors_spent": lambda ctx, st, arg: sum(1 for n in (ctx.ann.spent if ctx.ann else ())[:5] if n),
    "remembered": lambda ctx, st, arg: len(ctx.memory.get(arg, ())),
    "linked": lambda ctx, st, arg: len(linked_objects(ctx, arg)),
    "noted": lambda ctx, st, arg: remembered_value(ctx, arg, "607.2e"),
    "paid_as_entered": lambda ctx, st, arg: remembered_value(ctx, arg, "607.2g"),
    "announced_x": lambda ctx, st, arg: announced_x(ctx),
    "sacrificed": lambda ctx, st, arg: len(ctx.ann.sacrificed),
    "discarded": lambda ctx, st, arg: len(ctx.ann.discarded),
    "devotion": lambda ctx, st, arg: devotion(ctx.game, ctx.controller, arg),
}


@enforces("607.2e", "607.2g")
def remembered_value(ctx: Resolution, link: str, rule: str) -> int:
    """What a linked ability of the same object noted, or the cost paid as it entered (607.2e, 607.2g) — of the
    object as it last existed if it has left the battlefield."""
    applied(rule)
    return source_memory(ctx).get(link, 0)


@enforces("607.2j")
def announced_x(ctx: Resolution) -> int:
    """The value chosen for a variable cost as the permanent was cast — linked to the ability of the permanent
    that refers to it (607.2j)."""
    applied("607.2j")
    oid = ctx.source_object_id()
    return ctx.state.objects[oid].memory.get("x", 0) if oid is not None else 0


def run_effect(ctx: Resolution, spec: dict) -> None:
    cond = spec.get("if_paid")
    if cond is not None:
        paid = set(ctx.ann.optional) | set(ctx.ann.chosen) | {ctx.ann.alternative}
        if cond not in paid:
            return
    if spec.get("may") and not decide_optional(ctx, spec):
        return
    EFFECTS[spec["do"]].fn(ctx, bound_criteria(ctx, spec) if "_binds" in spec else spec)


def bound_criteria(ctx: Resolution, spec: dict) -> dict:
    """The effect with criteria that name a target word (``same_name_as``; engine.cardread marks such an effect
    ``_binds``) bound to what that word names as it resolves (engine.filters.bind)."""
    return {k: bind(v, ctx.objects) if v.__class__ is Filter else v for k, v in spec.items()}


@enforces("603.5", "608.2d")
def decide_optional(ctx: Resolution, spec: dict) -> bool:
    """An optional effect ("you may …"): its controller decides as it resolves, not when it triggered (603.5)."""
    if ctx.trigger is not None:
        applied("603.5")
    applied("608.2d")
    return ctx.choose_option(["yes", "no"], f"{spec['do']} (\"may\")") == "yes"
