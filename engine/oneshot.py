"""One-shot effects (610): do something once — damage, destroy, counter, move, draw, gain life, add mana …

Each kind is registered for card files with :func:`engine.effects.effect`.  Objects move through
:mod:`engine.zones` and damage goes through :mod:`engine.damage`, so that triggered abilities see
every event.  Several objects destroyed at once move as one event (603.10a).
"""
from __future__ import annotations

from . import players
from .carddefs import StaticDef
from .continuous import enters_as
from .costs import pool_from
from .damage import deal_damage, source_of
from .drawing import draw_card
from .effects import Resolution, effect, run_effect
from .errors import IllegalAction, NotExecutable
from .events import Event
from .filters import Filter, matches
from .instead import destruction, self_replacement
from .manaproduction import produce
from .registry import EN, applied, enforces
from .replacement import exists, replace_event
from .state import BATTLEFIELD, EXILE, GRAVEYARD, HAND, LIBRARY, STACK, object_target
from .triggers import Triggered, emit
from .zones import move_all, put_counters_on, tap_all

ZONE_OF = {"hand": HAND, "graveyard": GRAVEYARD, "exile": EXILE, "battlefield": BATTLEFIELD,
           "library_top": LIBRARY, "library_bottom": LIBRARY}


@effect("damage", required=("amount",), optional=("to", "all", "unpreventable"))
@enforces("610.1")
def damage(ctx: Resolution, spec: dict) -> None:
    """Deal damage to targets or players, or to each permanent matching ``all`` (``amount = "divided"``: as
    announced, 601.2d); all of it at the same time."""
    applied("610.1")
    source, source_ch = source_of(ctx.game, ctx.obj)
    recipients = ctx.targets(spec["to"]) if "to" in spec else [object_target(o.id) for o in _permanents(ctx, spec)]
    targets = [(t, ctx.ann.division.get(t, 0) if spec["amount"] == "divided" else ctx.amount(spec["amount"]))
               for t in recipients]
    deal_damage(ctx.game, source, source_ch, targets, unpreventable=bool(spec.get("unpreventable")))


def _permanents(ctx, spec) -> list:
    if "all" in spec:
        st = ctx.state
        return [st.objects[oid] for oid in list(st.battlefield)
                if matches(ctx.game, st.objects[oid], spec["all"], ctx.controller, ctx.source_id)]
    return [o for o in ctx.objects(spec["what"]) if o.zone == BATTLEFIELD]


@effect("destroy", optional=("what", "all", "exile_instead"))
@enforces("610.1", "609.2", EN + "702.12b")
def destroy(ctx: Resolution, spec: dict) -> None:
    """Destroy target permanents, or all permanents matching ``all``, at the same time (indestructible ones stay)."""
    applied("610.1")
    if "all" in spec:
        applied("609.2")  # "all …" means all such permanents
    ids = []
    for obj in _permanents(ctx, spec):
        if "indestructible" in ctx.game.keywords(obj):
            applied(EN + "702.12b")
        else:
            ids.append(obj.id)
    ids = destruction(ctx.game, ids)
    if ids and spec.get("exile_instead"):
        with self_replacement(ctx, "to_graveyard", "exile_instead", ids):
            move_all(ctx.game, ids, GRAVEYARD)
    elif ids:
        move_all(ctx.game, ids, GRAVEYARD)


@effect("counter", required=("what",))
@enforces("610.1", "604.5", "603.1a")
def counter(ctx: Resolution, spec: dict) -> None:
    """Counter target spells (to their owners' graveyards) or abilities (they cease to exist)."""
    applied("610.1")
    game = ctx.game
    for obj in ctx.objects(spec["what"]):
        if obj.zone != STACK:
            continue
        if obj.ability is not None:
            if obj.trigger is not None and obj.trigger.definition is not None \
                    and obj.trigger.definition.cant_be_countered:
                applied("603.1a")  # its instruction works while it is on the stack: it cannot be countered
                continue
            game.state.remove(obj.id)
            continue
        if "cant_be_countered" in game.keywords(obj):
            applied("604.5")  # a static ability that functions on the stack: it cannot be countered
            continue
        before, before_ch = obj.copy(), game.characteristics(obj)
        move_all(game, [obj.id], GRAVEYARD)
        emit(game, [Event("countered", player=before.controller, before=before, before_ch=before_ch)])


@effect("move", required=("what", "zone"), optional=("controller", "link", "filter", "amount", "becomes", "face_down",
                                                     "tapped"))
@enforces("610.1", "607.3")
def move(ctx: Resolution, spec: dict) -> None:
    """Move objects to a zone (hand, graveyard, exile, battlefield, library_top, library_bottom) at once;
    with ``filter``/``amount``, only that many of those matching, chosen by the controller (607.3 "a card")."""
    applied("610.1")
    zone = spec["zone"]
    objs = ctx.objects(spec["what"])
    if "filter" in spec:
        objs = [o for o in objs if matches(ctx.game, o, spec["filter"], ctx.controller, ctx.source_object_id())]
    if "amount" in spec:
        if len(objs) > 1:
            applied("607.3")  # the ability refers to "a card" of several: its controller chooses
        picked = ctx.choose(ctx.controller, [o.id for o in objs], ctx.amount(spec["amount"]), "move")
        objs = [ctx.state.objects[oid] for oid in picked]
    if not objs:
        return
    controller = ctx.controller if spec.get("controller") == "you" else None
    setup = _entering_setup(ctx, spec) if zone == "battlefield" else None
    new = move_all(ctx.game, [o.id for o in objs], ZONE_OF[zone], controller=controller,
                   bottom=zone == "library_bottom", queue=ctx.queue, setup=setup)
    if "link" in spec:
        remember_linked(ctx, spec["link"], new, zone)
    # later instructions that act on "it" find the card in its new zone (400.7j); information about it is
    # still read where it was expected (608.2h, engine.effects.information)
    ctx.followed.update({object_target(o.id): object_target(n.id) for o, n in zip(objs, new)})


def _entering_setup(ctx: Resolution, spec: dict):
    """How a permanent the effect puts onto the battlefield is as it enters: what it "is" (611.2e), face down
    (708.2a), tapped ("return it to the battlefield tapped": it enters so, 110.5b)."""
    steps = []
    if "becomes" in spec:
        steps.append(lambda made: enters_as(ctx, made, spec["becomes"]))
    if spec.get("face_down"):
        steps.append(lambda made: put_face_down(ctx.game, made))
    if spec.get("tapped"):
        steps.append(lambda made: setattr(made, "tapped", True))
    if not steps:
        return None

    def setup(old, made) -> None:
        for step in steps:
            step(made)
    return setup


@enforces("607.2a", "607.2c")
def remember_linked(ctx: Resolution, link: str, objs: list, zone: str) -> None:
    """The ability that moved them is linked to the abilities that refer to them (607.2a exile, 607.2c battlefield)."""
    source_id = ctx.source_object_id()
    if source_id is None:
        return
    applied("607.2a" if zone == "exile" else "607.2c")
    memory = ctx.state.objects[source_id].memory
    memory[link] = tuple(memory.get(link, ())) + tuple((o.uid, o.zone) for o in objs)


@enforces(EN + "708.2", EN + "708.2a")
def put_face_down(game, obj) -> None:
    """"Put … onto the battlefield face down": it enters with the face-down characteristics its card file gives
    (708.2a: a 2/2 creature without name, text, subtypes or mana cost) — never face up first."""
    face = next((name for name, f in game.db.cards[obj.card].faces.items() if f.way == "face_down"), None)
    if face is None:
        raise NotExecutable(f"{obj.card}: its card file gives no face-down characteristics ([[faces]] way = "
                            f"\"face_down\"); it cannot be put onto the battlefield face down yet")
    applied(EN + "708.2")
    applied(EN + "708.2a")
    obj.face = face


@effect("draw", required=("who",), optional=("amount", "discard_unless"))
@enforces("610.1", "614.11a", "614.11b")
def draw(ctx: Resolution, spec: dict) -> None:
    """Players draw cards, one at a time; drawing from an empty library loses the game (121.4, 704.5b).  A draw
    replaced within the sequence is completed before the next draw (614.11a).  "Draw a card and reveal it; if it
    isn't [criteria], discard it" (``discard_unless``): not done to cards drawn because the draw was replaced
    (614.11b)."""
    applied("610.1")
    for p in ctx.players(spec["who"]):
        n = ctx.amount(spec.get("amount", 1))
        if n > 1 and exists(ctx.game, "draw"):
            applied("614.11a")
        for _ in range(n):
            cards, replaced = draw_card(ctx.game, p)
            flt = spec.get("discard_unless")
            if flt is None:
                continue
            if replaced:
                applied("614.11b")  # the additional action is not performed on what the replacement drew
                continue
            misses = [c.id for c in cards if not matches(ctx.game, c, flt, ctx.controller, any_zone=True)]
            if misses:
                move_all(ctx.game, misses, GRAVEYARD)


@effect("discard", required=("who",), optional=("amount", "whole_hand"))
@enforces("610.1", "609.3", "608.2e")
def discard(ctx: Resolution, spec: dict) -> None:
    """Players discard cards of their choice (or their whole hand); with fewer cards in hand, all of them.
    Several players choose in APNAP order (608.2e)."""
    applied("610.1")
    players = ctx.players(spec["who"])
    if len(players) > 1:
        applied("608.2e")
    for p in players:
        hand = list(ctx.state.players[p].hand)
        if spec.get("whole_hand"):
            picked = hand
        else:
            n = ctx.amount(spec.get("amount", 1))
            if n > len(hand):
                applied("609.3")  # as many as possible
            picked = ctx.choose(p, hand, n, "discard")
        remembered = [(ctx.state.objects[oid], ctx.game.characteristics(ctx.state.objects[oid])) for oid in picked]
        ctx.memory["discarded"] = tuple(ctx.memory.get("discarded", ())) + tuple(remembered)
        if picked:
            move_all(ctx.game, picked, GRAVEYARD)


@effect("gain_life", required=("who", "amount"))
@enforces("610.1")
def gain_life(ctx: Resolution, spec: dict) -> None:
    """Players gain life."""
    applied("610.1")
    n = ctx.amount(spec["amount"])
    for p in ctx.players(spec["who"]):
        gained = n
        if exists(ctx.game, "gain_life"):
            ev = replace_event(ctx.game, "gain_life", {"player": p, "amount": n}, p)
            if ev is None:
                continue
            gained = ev["amount"]
        ctx.state.players[p].life += gained
        emit(ctx.game, [Event("life_gained", player=p, amount=gained)])


@effect("lose_life", required=("who", "amount"))
@enforces("610.1")
def lose_life(ctx: Resolution, spec: dict) -> None:
    """Players lose life."""
    applied("610.1")
    n = ctx.amount(spec["amount"])
    for p in ctx.players(spec["who"]):
        if exists(ctx.game, "lose_life") and replace_event(ctx.game, "lose_life", {"player": p, "amount": n}, p) \
                is None:
            continue
        ctx.state.players[p].life -= n


@effect("win_game", required=("who",))
@enforces("610.1")
def win_game(ctx: Resolution, spec: dict) -> None:
    """A player wins the game (104.2b)."""
    applied("610.1")
    for p in ctx.players(spec["who"]):
        players.win_game(ctx.game, p)


@effect("add_mana", optional=("mana", "one_of", "per", "who", "chosen", "produced"))
@enforces("610.1", "607.2d", "607.5a")
def add_mana(ctx: Resolution, spec: dict) -> None:
    """Add mana: fixed, one of several combinations, the colour chosen for a linked ability, or once per permanent."""
    applied("610.1")
    if spec.get("produced"):
        text = _produced(ctx)
    elif "one_of" in spec:
        text = ctx.choose_option(list(spec["one_of"]), "add mana")
    elif "chosen" in spec:
        applied("607.2d")
        source_id = ctx.source_object_id()
        color = ctx.state.objects[source_id].memory.get(spec["chosen"]) if source_id is not None else None
        if color is None:
            applied("607.5a")  # nothing was chosen for this ability: that part does nothing
        text = "{" + color + "}" if color else ""
    else:
        text = spec.get("mana", "")
    pool = pool_from(text)
    times = 1
    if "per" in spec:
        st = ctx.state
        times = sum(1 for oid in st.battlefield if matches(ctx.game, st.objects[oid], spec["per"], ctx.controller))
    ab = ctx.obj.abdef
    tapped = ctx.obj.ability is not None and ctx.trigger is None and ab is not None and bool(ab.cost.tap)
    for p in ctx.players(spec.get("who", "you")):
        target = ctx.state.players[p].pool
        made = produce(ctx.game, p, [n * times for n in pool], ctx.source_id, tapped)
        for i, n in enumerate(made):
            target[i] += n
        if any(made):
            emit(ctx.game, [Event("mana_added", player=p, amount=sum(made))])


def _produced(ctx: Resolution) -> str:
    """One mana of a type the permanent that triggered this ability produced (its controller chooses)."""
    event = ctx.trigger.event if ctx.trigger is not None else None
    produced = event.cause if event is not None and isinstance(event.cause, tuple) else ()
    types = ["{" + t + "}" for t, n in zip("WUBRGC", produced) if n > 0]
    if not types:
        return ""
    return types[0] if len(types) == 1 else ctx.choose_option(types, "add mana of a type it produced")


@effect("tap", optional=("what", "all"))
@enforces("610.1")
def tap(ctx: Resolution, spec: dict) -> None:
    """Tap target permanents (or all matching ``all``)."""
    applied("610.1")
    tap_all(ctx.game, _permanents(ctx, spec), True)


@effect("untap", optional=("what", "all"))
@enforces("610.1")
def untap(ctx: Resolution, spec: dict) -> None:
    """Untap target permanents (or all matching ``all``)."""
    applied("610.1")
    tap_all(ctx.game, _permanents(ctx, spec), False)


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
            tap_all(ctx.game, [obj], choice == "tap")


@effect("put_counters", required=("on", "kind"), optional=("amount",))
@enforces("610.1")
def put_counters(ctx: Resolution, spec: dict) -> None:
    """Put counters of a kind on target permanents."""
    applied("610.1")
    n = ctx.amount(spec.get("amount", 1))
    for obj in ctx.objects(spec["on"]):
        if obj.zone == BATTLEFIELD and n > 0:
            put_counters_on(ctx.game, obj, spec["kind"], n)


@effect("sacrifice", required=("who",),
        optional=("filter", "amount", "optional", "otherwise", "reflexive", "reflexive_each", "what"))
@enforces("610.1", "608.2d", "609.3", "603.12", "603.12a", "603.5", "608.2e")
def sacrifice(ctx: Resolution, spec: dict) -> None:
    """Players sacrifice permanents of their choice (or the ones ``what`` names); ``optional``: they may,
    ``otherwise`` happens if they don't; ``reflexive``: a triggered ability that triggers when they do (603.12).
    Several players choose in APNAP order (608.2e), the choices taken from the step's list in that order."""
    applied("610.1")
    flt = spec.get("filter") or Filter()
    players = ctx.players(spec["who"])
    if len(players) > 1:
        applied("608.2e")
    for p in players:
        st = ctx.state
        if "what" in spec:
            chosen = [o.id for o in ctx.objects(spec["what"]) if o.zone == BATTLEFIELD and o.controller == p]
            if chosen:
                move_all(ctx.game, chosen, GRAVEYARD)
            continue
        candidates = [oid for oid in st.battlefield if st.objects[oid].controller == p
                      and matches(ctx.game, st.objects[oid], flt, p, ctx.source_object_id())]
        n = ctx.amount(spec.get("amount", 1))
        if n > len(candidates):
            applied("609.3")  # as many as possible
        if spec.get("optional"):
            applied("608.2d")
            if ctx.trigger is not None:
                applied("603.5")  # "you may": decided as the triggered ability resolves
            if not ctx.queue or ctx.queue[0] in ("nothing", "no"):
                if ctx.queue:
                    ctx.queue.pop(0)
                for sub in spec.get("otherwise", []):
                    run_effect(ctx, sub)
                continue
            if not candidates:
                raise IllegalAction("608.2d", f"{st.players[p].name} controls nothing that could be sacrificed: "
                                              f"{ctx.queue[0]} cannot be chosen")
        picked = ctx.choose(p, candidates, n, "sacrifice")
        lki = tuple((st.objects[oid].copy(), ctx.game.characteristics(st.objects[oid])) for oid in picked)
        move_all(ctx.game, picked, GRAVEYARD)
        if picked and "reflexive" in spec:
            _when_you_do(ctx, spec, lki)


def _when_you_do(ctx: Resolution, spec: dict, lki: tuple) -> None:
    applied("603.12")  # "when you do": it triggers now, because the player did it during this resolution
    if spec.get("reflexive_each"):
        if len(lki) > 1:
            applied("603.12a")  # the event happened several times: it triggers for each
        for one in lki:
            reflexive(ctx, spec["reflexive"], (("sacrificed", (one,)),))
    else:
        reflexive(ctx, spec["reflexive"], (("sacrificed", lki),))


def reflexive(ctx: Resolution, ability, memory: tuple) -> None:
    t = ctx.trigger
    ctx.state.pending.append(Triggered(ability, None, ctx.source_id, t.source_uid if t else ctx.obj.source_uid,
                                       ctx.obj.source_card or ctx.obj.card or "", ctx.controller, None, "reflexive",
                                       None, memory))


@effect("fight", required=("a", "b"))
@enforces("610.1")
def fight(ctx: Resolution, spec: dict) -> None:
    """Two target creatures fight: each deals damage equal to its power to the other (only if both are legal)."""
    applied("610.1")
    a, b = ctx.objects(spec["a"]), ctx.objects(spec["b"])
    if a and b and a[0].zone == BATTLEFIELD and b[0].zone == BATTLEFIELD:
        game = ctx.game
        pa, pb = game.power(a[0]) or 0, game.power(b[0]) or 0
        deal_damage(game, a[0], game.characteristics(a[0]), [(object_target(b[0].id), pa)])
        deal_damage(game, b[0], game.characteristics(b[0]), [(object_target(a[0].id), pb)])


@effect("note", required=("amount", "link"))
@enforces("610.1", "607.2e")
def note(ctx: Resolution, spec: dict) -> None:
    """Note a number for this object; a linked ability refers to it (607.2e)."""
    applied("610.1")
    applied("607.2e")
    oid = ctx.source_object_id()
    if oid is not None:
        ctx.state.objects[oid].memory[spec["link"]] = ctx.amount(spec["amount"])


@effect("cost_change", required=("spells",), optional=("increase", "reduce"))
@enforces("610.1", "611.2", "611.2a")
def cost_change(ctx: Resolution, spec: dict) -> None:
    """Spells with certain characteristics cost more or less this turn: a continuous effect of a resolved spell
    or ability, lasting as long as it says (611.2a)."""
    applied("611.2")
    applied("611.2a")
    static = StaticDef("cost", {"spells": spec["spells"], **{k: spec[k] for k in ("increase", "reduce") if k in spec}})
    ctx.state.effects.append((static, ctx.obj.source_card or ctx.obj.card or "", ctx.controller))


@effect("pending", required=("rule",), optional=("what",))
def pending(ctx: Resolution, spec: dict) -> None:
    """Card text the engine cannot execute yet (names the rules it needs)."""
    raise NotExecutable(f"{ctx.obj.card or ctx.obj.source_card}: this effect needs rule {spec['rule']}, "
                        f"which the engine does not implement yet: {spec.get('text', '')}")
