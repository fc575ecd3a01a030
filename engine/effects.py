"""One-shot effects (609, 610): the vocabulary card files use in ``effects = [...]``.

Each effect kind is one function registered under its name with
:func:`effect`; card files are checked against this registry when they are
loaded (:mod:`engine.cardfile`), so a card can only say what the engine can do.  ``pending`` marks
card text that needs rules not implemented yet (continuous effects, triggers):
such a card can be cast, but resolving the pending part stops with a clear
message instead of doing something wrong.

Effects read game information when they are applied (608.2h), affect only the
still-legal targets of their target word (608.2b) and do as much as possible
(609.3).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .costs import pool_from
from .errors import IllegalAction, NotExecutable
from .filters import Filter, matches
from .registry import applied, enforces
from .state import BATTLEFIELD, EXILE, GRAVEYARD, HAND, LIBRARY, STACK, object_target, player_target

#: player words an effect may name instead of a target word
PLAYER_WORDS = ("you", "each_opponent", "each_player", "each_other_player")
ZONE_WORDS = ("hand", "graveyard", "exile", "battlefield", "library_top", "library_bottom")
COMMON_KEYS = {"do", "if_paid", "text", "_token"}


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

    # references
    def players(self, who) -> list[int]:
        st = self.state
        if who == "you":
            return [self.controller]
        if who == "each_opponent":
            return st.opponents(self.controller)
        if who == "each_other_player":
            return st.opponents(self.controller)
        if who == "each_player":
            return [p.index for p in st.players]
        return [ref for kind, ref in self.legal.get(who, ()) if kind == "P"]

    def targets(self, ref) -> list:
        if ref in PLAYER_WORDS:
            return [player_target(p) for p in self.players(ref)]
        return list(self.legal.get(ref, ()))

    def objects(self, ref) -> list:
        return [self.state.objects[oid] for kind, oid in self.targets(ref) if kind == "O" and oid in self.state.objects]

    def amount(self, value) -> int:
        if isinstance(value, int):
            return value
        if value == "X":
            return self.ann.x
        base = {k: v for k, v in value.items() if k not in ("times", "plus")}
        return self._base_amount(base) * value.get("times", 1) + value.get("plus", 0)

    def _base_amount(self, value) -> int:
        return read_game_information(self, value)

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


@enforces("608.2h")
def read_game_information(ctx: Resolution, value: dict) -> int:
    """Information from the game (a number of objects, a greatest power) is determined once, as the effect applies."""
    (key, arg), = value.items()
    st = ctx.state
    applied("608.2h")
    if key == "count":
        return sum(1 for oid in st.battlefield if matches(ctx.game, st.objects[oid], arg, ctx.controller,
                                                            ctx.source_id))
    if key == "greatest_power":
        owners = ctx.players(arg)
        powers = [ctx.game.power(o) for o in (st.objects[oid] for oid in st.battlefield)
                  if o.controller in owners and "creature" in ctx.game.characteristics(o).types]
        return max(powers, default=0)
    if key == "sacrificed":
        return len(ctx.ann.sacrificed)
    if key == "discarded":
        return len(ctx.ann.discarded)
    raise ValueError(value)


# -- effect kinds -------------------------------------------------------------------------------------------------

def deal_damage(game, target, n: int) -> None:
    if n <= 0:
        return
    kind, ref = target
    st = game.state
    if kind == "P":
        st.players[ref].life -= n
        return
    obj = st.objects[ref]
    ch = game.characteristics(obj)
    if "creature" in ch.types:
        obj.damage += n
    if "planeswalker" in ch.types:
        obj.counters["loyalty"] = max(0, obj.counters.get("loyalty", 0) - n)


@effect("damage", required=("amount", "to"))
@enforces("610.1")
def damage(ctx: Resolution, spec: dict) -> None:
    """Deal damage to targets or players (``amount = "divided"``: as announced, 601.2d)."""
    applied("610.1")
    for t in ctx.targets(spec["to"]):
        n = ctx.ann.division.get(t, 0) if spec["amount"] == "divided" else ctx.amount(spec["amount"])
        deal_damage(ctx.game, t, n)


def _permanents(ctx, spec) -> list:
    if "all" in spec:
        st = ctx.state
        return [st.objects[oid] for oid in list(st.battlefield)
                if matches(ctx.game, st.objects[oid], spec["all"], ctx.controller, ctx.source_id)]
    return [o for o in ctx.objects(spec["what"]) if o.zone == BATTLEFIELD]


@effect("destroy", optional=("what", "all"))
@enforces("610.1", "609.2")
def destroy(ctx: Resolution, spec: dict) -> None:
    """Destroy target permanents, or all permanents matching ``all``: they go to their owners' graveyards."""
    applied("610.1")
    if "all" in spec:
        applied("609.2")  # "all …" means all such permanents
    for obj in _permanents(ctx, spec):
        ctx.state.move(obj.id, GRAVEYARD)


@effect("counter", required=("what",))
@enforces("610.1")
def counter(ctx: Resolution, spec: dict) -> None:
    """Counter target spells (to their owners' graveyards) or abilities (they cease to exist)."""
    applied("610.1")
    for obj in ctx.objects(spec["what"]):
        if obj.zone != STACK:
            continue
        if obj.ability is not None:
            ctx.state.remove(obj.id)
        else:
            ctx.state.move(obj.id, GRAVEYARD)


@effect("move", required=("what", "zone"), optional=("controller",))
@enforces("610.1")
def move(ctx: Resolution, spec: dict) -> None:
    """Move target objects to a zone (hand, graveyard, exile, battlefield, library_top, library_bottom)."""
    applied("610.1")
    zone = spec["zone"]
    moved = []
    for obj in ctx.objects(spec["what"]):
        if zone == "battlefield":
            controller = ctx.controller if spec.get("controller") == "you" else obj.owner
            new = ctx.state.move(obj.id, BATTLEFIELD, controller=controller)
            new.since_turn = ctx.state.turn
        elif zone.startswith("library"):
            new = ctx.state.move(obj.id, LIBRARY, bottom=zone == "library_bottom")
        else:
            new = ctx.state.move(obj.id, {"hand": HAND, "graveyard": GRAVEYARD, "exile": EXILE}[zone])
        moved.append((object_target(obj.id), object_target(new.id)))
    # later instructions about "it" follow the card to its new zone
    renames = dict(moved)
    ctx.legal[spec["what"]] = [renames.get(t, t) for t in ctx.legal.get(spec["what"], ())]


@effect("draw", required=("who",), optional=("amount",))
@enforces("610.1")
def draw(ctx: Resolution, spec: dict) -> None:
    """Players draw cards, one at a time (121.2); drawing from an empty library loses the game (121.4, 704.5b)."""
    applied("610.1")
    for p in ctx.players(spec["who"]):
        for _ in range(ctx.amount(spec.get("amount", 1))):
            draw_card(ctx.game, p)


@enforces("en-2024-11-08/121.1", "en-2024-11-08/121.2", "en-2024-11-08/121.4")
def draw_card(game, player: int) -> None:
    """Draw one card: the top card of the library into the hand; from an empty library, remember the attempt."""
    lib = game.state.players[player].library
    applied("en-2024-11-08/121.2")
    if not lib:
        applied("en-2024-11-08/121.4")
        game.state.players[player].drew_from_empty = True
        return
    applied("en-2024-11-08/121.1")
    game.state.move(lib[-1], HAND)


@effect("discard", required=("who",), optional=("amount",))
@enforces("610.1", "609.3")
def discard(ctx: Resolution, spec: dict) -> None:
    """Players discard cards of their choice; with fewer cards in hand, all of them."""
    applied("610.1")
    for p in ctx.players(spec["who"]):
        hand = list(ctx.state.players[p].hand)
        n = ctx.amount(spec.get("amount", 1))
        if n > len(hand):
            applied("609.3")  # as many as possible
        for oid in ctx.choose(p, hand, n, "discard"):
            ctx.state.move(oid, GRAVEYARD)


@effect("gain_life", required=("who", "amount"))
@enforces("610.1")
def gain_life(ctx: Resolution, spec: dict) -> None:
    """Players gain life."""
    applied("610.1")
    n = ctx.amount(spec["amount"])
    for p in ctx.players(spec["who"]):
        ctx.state.players[p].life += n


@effect("lose_life", required=("who", "amount"))
@enforces("610.1")
def lose_life(ctx: Resolution, spec: dict) -> None:
    """Players lose life."""
    applied("610.1")
    n = ctx.amount(spec["amount"])
    for p in ctx.players(spec["who"]):
        ctx.state.players[p].life -= n


@effect("add_mana", optional=("mana", "one_of", "per", "who"))
@enforces("610.1")
def add_mana(ctx: Resolution, spec: dict) -> None:
    """Add mana to a player's mana pool: fixed, one of several combinations, or once per matching permanent."""
    applied("610.1")
    if "one_of" in spec:
        text = ctx.choose_option(list(spec["one_of"]), "add mana")
    else:
        text = spec.get("mana", "")
    pool = pool_from(text)
    times = 1
    if "per" in spec:
        st = ctx.state
        times = sum(1 for oid in st.battlefield if matches(ctx.game, st.objects[oid], spec["per"], ctx.controller))
    for p in ctx.players(spec.get("who", "you")):
        target = ctx.state.players[p].pool
        for i, n in enumerate(pool):
            target[i] += n * times


@effect("tap", optional=("what", "all"))
@enforces("610.1")
def tap(ctx: Resolution, spec: dict) -> None:
    """Tap target permanents (or all matching ``all``)."""
    applied("610.1")
    for obj in _permanents(ctx, spec):
        obj.tapped = True


@effect("untap", optional=("what", "all"))
@enforces("610.1")
def untap(ctx: Resolution, spec: dict) -> None:
    """Untap target permanents (or all matching ``all``)."""
    applied("610.1")
    for obj in _permanents(ctx, spec):
        obj.tapped = False


@effect("tap_or_untap", required=("what",), optional=("optional",))
@enforces("610.1", "608.2d")
def tap_or_untap(ctx: Resolution, spec: dict) -> None:
    """Tap or untap each target (``optional``: or neither), chosen while resolving — not a mode."""
    applied("610.1")
    options = ["tap", "untap"] + (["nothing"] if spec.get("optional") else [])
    for obj in _permanents(ctx, spec):
        choice = ctx.choose_option(options, f"treat {obj.card}")
        applied("608.2d")
        if choice != "nothing":
            obj.tapped = choice == "tap"


@effect("put_counters", required=("on", "kind"), optional=("amount",))
@enforces("610.1")
def put_counters(ctx: Resolution, spec: dict) -> None:
    """Put counters of a kind on target permanents."""
    applied("610.1")
    n = ctx.amount(spec.get("amount", 1))
    for obj in ctx.objects(spec["on"]):
        if obj.zone == BATTLEFIELD and n > 0:
            obj.counters[spec["kind"]] = obj.counters.get(spec["kind"], 0) + n


@effect("sacrifice", required=("who",), optional=("filter", "amount", "optional", "otherwise"))
@enforces("610.1", "608.2d", "609.3")
def sacrifice(ctx: Resolution, spec: dict) -> None:
    """Players sacrifice permanents of their choice; ``optional``: they may, ``otherwise`` happens if they don't."""
    applied("610.1")
    flt = spec.get("filter") or Filter()
    for p in ctx.players(spec["who"]):
        st = ctx.state
        candidates = [oid for oid in st.battlefield if st.objects[oid].controller == p
                      and matches(ctx.game, st.objects[oid], flt, p)]
        n = ctx.amount(spec.get("amount", 1))
        if n > len(candidates):
            applied("609.3")  # as many as possible
        if spec.get("optional"):
            applied("608.2d")
            if not ctx.queue or ctx.queue[0] in ("nothing", "no"):
                if ctx.queue:
                    ctx.queue.pop(0)
                for sub in spec.get("otherwise", []):
                    run_effect(ctx, sub)
                continue
            if not candidates:
                raise IllegalAction("608.2d", f"{st.players[p].name} controls nothing that could be sacrificed: "
                                              f"{ctx.queue[0]} cannot be chosen")
        for oid in ctx.choose(p, candidates, n, "sacrifice"):
            st.move(oid, GRAVEYARD)


@effect("create_token", required=("token",), optional=("amount", "who"))
@enforces("610.1")
def create_token(ctx: Resolution, spec: dict) -> None:
    """Create tokens under a player's control."""
    applied("610.1")
    token = spec["_token"]
    if token.name not in ctx.game.db:
        ctx.game.db.add(token)
    for p in ctx.players(spec.get("who", "you")):
        for _ in range(ctx.amount(spec.get("amount", 1))):
            obj = ctx.state.new_object(token.name, p, BATTLEFIELD, token=True)
            obj.since_turn = ctx.state.turn


@effect("fight", required=("a", "b"))
@enforces("610.1")
def fight(ctx: Resolution, spec: dict) -> None:
    """Two target creatures fight: each deals damage equal to its power to the other (only if both are legal)."""
    applied("610.1")
    a, b = ctx.objects(spec["a"]), ctx.objects(spec["b"])
    if a and b and a[0].zone == BATTLEFIELD and b[0].zone == BATTLEFIELD:
        pa, pb = ctx.game.power(a[0]) or 0, ctx.game.power(b[0]) or 0
        deal_damage(ctx.game, object_target(b[0].id), pa)
        deal_damage(ctx.game, object_target(a[0].id), pb)


@effect("pending", required=("rule",), optional=("what",))
def pending(ctx: Resolution, spec: dict) -> None:
    """Card text the engine cannot execute yet (names the rules it needs)."""
    raise NotExecutable(f"{ctx.obj.card or ctx.obj.source_card}: this effect needs rule {spec['rule']}, "
                        f"which the engine does not implement yet: {spec.get('text', '')}")


def run_effect(ctx: Resolution, spec: dict) -> None:
    cond = spec.get("if_paid")
    if cond is not None:
        paid = set(ctx.ann.optional) | set(ctx.ann.chosen) | {ctx.ann.alternative}
        if cond not in paid:
            return
    EFFECTS[spec["do"]].fn(ctx, spec)

