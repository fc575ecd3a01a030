"""State-based actions (704), checked whenever a player would receive priority (704.3, 117.5).

All conditions are checked, then every applicable action is performed at once, as one event;
then the check repeats until none applies.  Each action is its own function, called only when
its condition holds, so a trace shows exactly the state-based actions that happened.  The rules
are cited from the English 2024 rules (chapter 7 is not part of the German excerpt).
"""
from __future__ import annotations

from .characteristics import board, continuous
from .continuous import timestamp_of
from .errors import IllegalAction
from .instead import destruction
from .loops import mandatory_loop, spend
from .players import lose_game
from .registry import EN, applied, enforces
from .state import BATTLEFIELD, GRAVEYARD
from .zones import move_all

D = "de-1999/"


@enforces(EN + "704.3")
def check_state_based_actions(game) -> bool:
    """Perform all state-based actions that apply, as one event; repeat while any was performed.  Did any?

    An action whose condition holds but that changes nothing — an indestructible creature with lethal damage is
    "destroyed" and stays (702.12b) — is not performed, so it does not make the check repeat: the check repeats
    only when the game changed.  A check that keeps changing the game is a loop of mandatory actions: after
    :data:`engine.loops.MAX_ROUNDS` rounds the game is a draw (104.4b)."""
    st = game.state
    performed = False
    rounds = 0
    while not st.over:
        found = _conditions(game)
        applied(EN + "704.3")
        if not any(found.values()):
            return performed
        before = st.copy(live=False)
        graveyard: list[int] = []
        for key, handler in ACTIONS:
            if found[key]:
                handler(game, found[key], graveyard)
        _to_graveyard(game, graveyard)
        if game.state == before:
            return performed  # nothing was performed: the check is not repeated
        performed = True
        rounds += 1
        spend(game, EN + "704.3")
        if mandatory_loop(game, rounds):
            break
    return performed


def _conditions(game) -> dict[str, list]:
    st = game.state
    found: dict[str, list] = {key: [] for key in EMPTY}
    if not _anything(game):
        return found
    found["losers"] = [p.index for p in st.players if p.in_game and (p.life <= 0 or p.drew_from_empty)]
    legends: dict[str, list[int]] = {}
    worlds: list = []
    for oid, ch, toughness in board(game):
        obj = st.objects[oid]
        if "creature" in ch.types:
            _creature(obj, toughness, found)
        if "planeswalker" in ch.types and obj.counters.get("loyalty", 0) <= 0:
            found["walkers"].append(oid)
        if "Aura" in ch.subtypes and not _attached_legally(game, obj, ch):
            found["auras"].append(oid)
        if "Equipment" in ch.subtypes and obj.attached_to is not None and not _equips_legally(game, obj, ch):
            found["equipment"].append(oid)
        if "legendary" in ch.supertypes:
            legends.setdefault(ch.name, []).append(oid)
        if "world" in ch.supertypes:
            worlds.append(obj)
        if obj.counters.get("+1/+1") and obj.counters.get("-1/-1"):
            found["counters"].append(oid)
    found["legends"] = game.variants.legend_groups(game, [ids for ids in legends.values() if len(ids) > 1])
    found["worlds"] = [o.id for o in worlds] if len(worlds) > 1 else []
    found["tokens"] = [oid for oid, o in st.objects.items() if o.token and o.zone != BATTLEFIELD]
    return found


def nothing_applies(game) -> bool:
    """True when no state-based action can apply now (a quick look)."""
    return not _anything(game)


def _anything(game) -> bool:
    """A quick look: could any state-based action apply?  (Most of the time none does.)"""
    st = game.state
    for p in st.players:
        if not p.lost and (p.life <= 0 or p.drew_from_empty):
            return True
    objects = st.objects
    always, creatures = _watch(game)
    if always:
        return True
    for oid in st.battlefield:
        obj = objects[oid]
        if obj.damage or obj.deathtouched or obj.token or obj.counters:
            return True
    if creatures and (st.effects or continuous(game)):  # a static ability or a resolved effect may lower toughness
        if any((game.toughness(objects[oid]) or 0) <= 0 for oid in creatures):
            return True
    return any(o.token and o.zone != BATTLEFIELD for o in objects.values())


def _watch(game) -> tuple[bool, list[int]]:
    """For the permanents on the battlefield (kept until it changes): is there one whose characteristics alone
    call for a full check (legendary, an Aura, a planeswalker, toughness 0 or defined by an ability), and which
    are creatures?"""
    st = game.state
    cache = game.sba_cache
    if cache is not None and cache[0] == st.battlefield:
        return cache[1]
    always, creatures = False, []
    for oid in st.battlefield:
        ch = game.characteristics(st.objects[oid])
        if ch.supertypes & {"legendary", "world"} or ch.subtypes & {"Aura", "Equipment"} or "planeswalker" in ch.types:
            always = True
        if "creature" in ch.types:
            creatures.append(oid)
            if (ch.toughness or 0) <= 0 or ch.statics:
                always = True
    game.sba_cache = (st.battlefield[:], (always, creatures))
    return always, creatures


def _creature(obj, t, found) -> None:
    if t is None:
        return
    if t <= 0:
        found["zero"].append(obj.id)
    elif obj.damage >= t and obj.damage > 0:
        found["lethal"].append(obj.id)
    elif obj.deathtouched:
        found["deathtouch"].append(obj.id)


def _attached_legally(game, aura, ch) -> bool:
    st = game.state
    target = st.objects.get(aura.attached_to) if aura.attached_to is not None else None
    if target is None or target.zone != BATTLEFIELD:
        return False
    return not protected_from(game, target, ch, EN + "702.16c")


def _equips_legally(game, equipment, ch) -> bool:
    target = game.state.objects.get(equipment.attached_to)
    if target is None or target.zone != BATTLEFIELD or "creature" not in game.characteristics(target).types:
        return False
    return not protected_from(game, target, ch, EN + "702.16d")


@enforces(EN + "702.16c", EN + "702.16d")
def protected_from(game, permanent, attached_ch, rule: str) -> bool:
    """Protection from a colour: the permanent can't be enchanted by Auras (702.16c) or equipped by Equipment
    (702.16d) of that colour — one already attached is attached illegally."""
    if any(f"protection:{c}" in game.keywords(permanent) for c in attached_ch.colors):
        applied(rule)
        return True
    return False


@enforces(EN + "704.5a", EN + "704.5b")
def players_lose(game, players: list[int], graveyard: list[int]) -> None:
    """A player with 0 or less life, or who attempted to draw from an empty library, loses the game."""
    st = game.state
    for p in players:
        applied(EN + ("704.5a" if st.players[p].life <= 0 else "704.5b"))
        st.players[p].drew_from_empty = False
    lose_game(game, players, EN + "704.5a")


@enforces(EN + "704.5f")
def zero_toughness(game, ids: list[int], graveyard: list[int]) -> None:
    """A creature with toughness 0 or less is put into its owner's graveyard."""
    applied(EN + "704.5f")
    graveyard.extend(ids)


@enforces(EN + "704.5g", EN + "702.12b")
def lethal_damage(game, ids: list[int], graveyard: list[int]) -> None:
    """A creature with lethal damage is destroyed — unless it is indestructible."""
    applied(EN + "704.5g")
    for oid in ids:
        if "indestructible" in game.keywords(game.state.objects[oid]):
            applied(EN + "702.12b")
        else:
            graveyard.extend(destruction(game, [oid]))


@enforces(EN + "704.5h", EN + "702.2b", EN + "702.12b")
def deathtouch_damage(game, ids: list[int], graveyard: list[int]) -> None:
    """A creature dealt damage by a source with deathtouch since the last check is destroyed."""
    applied(EN + "704.5h")
    applied(EN + "702.2b")
    for oid in ids:
        obj = game.state.objects[oid]
        obj.deathtouched = False
        if "indestructible" in game.keywords(obj):
            applied(EN + "702.12b")
        else:
            graveyard.append(oid)


@enforces(EN + "704.5i")
def zero_loyalty(game, ids: list[int], graveyard: list[int]) -> None:
    """A planeswalker with loyalty 0 is put into its owner's graveyard."""
    applied(EN + "704.5i")
    graveyard.extend(ids)


def groups_by_controller(game, same_name: list[list[int]]) -> list[list[int]]:
    """Today's legend rule looks at each player's legendary permanents on their own (704.5j)."""
    out = []
    for ids in same_name:
        mine: dict[int, list[int]] = {}
        for oid in ids:
            mine.setdefault(game.state.objects[oid].controller, []).append(oid)
        out += [group for group in mine.values() if len(group) > 1]
    return out


def all_controllers(game, same_name: list[list[int]]) -> list[list[int]]:
    """The legend rule of 1999 looks at all legendary permanents with the same name, whoever controls them."""
    return same_name


@enforces(EN + "704.5j")
def legend_rule(game, groups: list[list[int]], graveyard: list[int]) -> None:
    """Today's rules: two or more legendary permanents with the same name, one controller: that player chooses
    one, the rest go to their owners' graveyards."""
    applied(EN + "704.5j")
    for ids in groups:
        keep = _kept(game, ids)
        graveyard.extend(oid for oid in ids if oid != keep)


def _kept(game, ids: list[int]) -> int:
    st = game.state
    wanted = game.decisions.keep if game.decisions is not None else []
    for ref in list(wanted):
        found = game.namer(ref, ids) if game.namer else next((i for i in ids if st.objects[i].card == ref), None)
        if found is not None:
            wanted.remove(ref)
            return found
    obj = st.objects[ids[0]]
    if all(_indistinguishable(game, st.objects[i], obj) for i in ids):
        return ids[0]  # nothing tells them apart: which one is kept changes nothing
    raise IllegalAction(EN + "704.5j", f"{st.players[obj.controller].name} controls {len(ids)} legendary "
                                       f"{game.characteristics(obj).name} and chooses one to keep "
                                       "(add 'keep: LABEL' to the step)")


def _indistinguishable(game, a, b) -> bool:
    """Permanents no later rule or choice could tell apart: same card, face, state, counters, memory, and nothing
    attached to either."""
    if any(o.attached_to in (a.id, b.id) for o in game.state.objects.values()):
        return False
    return (a.card, a.face, a.controller, a.owner, a.tapped, a.damage, a.counters, a.attached_to, a.token,
            a.since_turn, a.memory) == (b.card, b.face, b.controller, b.owner, b.tapped, b.damage, b.counters,
                                        b.attached_to, b.token, b.since_turn, b.memory)


@enforces(D + "420.5e")
def oldest_legend_stays(game, groups: list[list[int]], graveyard: list[int]) -> None:
    """The rules of 1999: of two or more legendary permanents with the same name in play — whoever controls them —
    all but the oldest go to their owners' graveyards; nobody chooses.  (Objects that came into play together
    would all go; the engine gives each object its own time of entering, so there is no tie.)"""
    applied(D + "420.5e")
    for ids in groups:
        oldest = min(ids)  # object ids grow in the order the objects came into play
        graveyard.extend(oid for oid in ids if oid != oldest)


@enforces(EN + "704.5k")
def world_rule(game, ids: list[int], graveyard: list[int]) -> None:
    """The world rule: of two or more permanents with the supertype world, all but the one that has had it for
    the shortest time go to their owners' graveyards (704.5k).  A permanent has had the supertype since its
    timestamp (it entered the battlefield, 613.7d; or was turned face up, 613.7f: face down it has no supertypes);
    each object gets a timestamp of its own, so there is no tie here."""
    applied(EN + "704.5k")
    newest = max(ids, key=lambda oid: timestamp_of(game.state.objects[oid]))
    graveyard.extend(oid for oid in ids if oid != newest)


@enforces(EN + "704.5m")
def unattached_auras(game, ids: list[int], graveyard: list[int]) -> None:
    """An Aura attached to an illegal object or to nothing is put into its owner's graveyard."""
    applied(EN + "704.5m")
    graveyard.extend(ids)


@enforces(EN + "704.5n")
def unattached_equipment(game, ids: list[int], graveyard: list[int]) -> None:
    """An Equipment attached to an illegal permanent becomes unattached; it stays on the battlefield."""
    applied(EN + "704.5n")
    for oid in ids:
        game.state.objects[oid].attached_to = None


@enforces(EN + "704.5d")
def tokens_cease(game, ids: list[int], graveyard: list[int]) -> None:
    """A token in a zone other than the battlefield ceases to exist."""
    applied(EN + "704.5d")
    for oid in ids:
        game.state.remove(oid)


@enforces(EN + "704.5q")
def counters_cancel(game, ids: list[int], graveyard: list[int]) -> None:
    """+1/+1 and -1/-1 counters on the same permanent are removed in pairs."""
    applied(EN + "704.5q")
    for oid in ids:
        c = game.state.objects[oid].counters
        n = min(c["+1/+1"], c["-1/-1"])
        c["+1/+1"] -= n
        c["-1/-1"] -= n


def _to_graveyard(game, graveyard: list[int]) -> None:
    """Everything the actions put into graveyards moves at once: one event (603.10a looks back at all of it)."""
    ids = list(dict.fromkeys(oid for oid in graveyard if oid in game.state.objects))
    if ids:
        move_all(game, ids, GRAVEYARD)


#: the state-based actions in the order they are performed (all of them as one event)
ACTIONS = [("losers", players_lose), ("zero", zero_toughness), ("lethal", lethal_damage),
           ("deathtouch", deathtouch_damage), ("walkers", zero_loyalty),
           ("legends", lambda game, groups, graveyard: game.variants.legend_rule(game, groups, graveyard)),
           ("worlds", world_rule),
           ("auras", unattached_auras), ("equipment", unattached_equipment), ("counters", counters_cancel),
           ("tokens", tokens_cease)]
EMPTY = [key for key, _ in ACTIONS]
