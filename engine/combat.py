"""Basic combat (506–511): declaring attackers and blockers, combat damage, the end of combat.

As far as the examples of chapter 6 need it: creatures attack players or planeswalkers, each
blocker blocks one attacker, evasion (flying, reach, protection) restricts blocks, first strike
makes an extra combat damage step, trample assigns what is left over to the player.  Declarations
are turn-based actions (508.1, 509.1): an illegal declaration is reversed like an illegal action.
Rules of chapter 5 and 7 are cited from the English 2024 rules.
"""
from __future__ import annotations

from .damage import deal_damage
from .errors import IllegalAction
from .events import Event
from .registry import EN, applied, enforces
from .state import BATTLEFIELD, object_target
from .triggers import emit
from .zones import tap_all


def _creature(game, oid: int, player: int, what: str):
    st = game.state
    obj = st.objects.get(oid)
    if obj is None or obj.zone != BATTLEFIELD or "creature" not in game.characteristics(obj).types:
        raise IllegalAction(EN + ("508.1a" if what == "attack" else "509.1a"), f"only a creature on the "
                                                                                 f"battlefield can {what}")
    if obj.controller != player:
        raise IllegalAction(EN + ("508.1a" if what == "attack" else "509.1a"),
                            f"{obj.card} is not controlled by {st.players[player].name}")
    if obj.tapped:
        raise IllegalAction(EN + ("508.1a" if what == "attack" else "509.1a"), f"{obj.card} is tapped")
    return obj


@enforces(EN + "508.1", EN + "508.1a", EN + "508.1b", EN + "508.1c", EN + "508.1f", EN + "302.6", EN + "702.10b",
          EN + "702.3b", EN + "702.20b", EN + "508.3a")
def declare_attackers(game, declaration: list[tuple[int, tuple]]) -> None:
    """The active player declares attackers (each with what it attacks); they become tapped unless vigilant."""
    st = game.state
    applied(EN + "508.1")
    if not declaration:
        return  # no attackers: what happens next depends on the rule set (engine.variants, no_attackers)
    for oid, defender in declaration:
        obj = _creature(game, oid, st.active, "attack")
        applied(EN + "508.1a")
        keywords = game.keywords(obj)
        if obj.since_turn >= st.players[st.active].last_turn:
            applied(EN + "302.6")
            if "haste" not in keywords:
                raise IllegalAction(EN + "302.6", f"{obj.card} has not been under its controller's control "
                                                  f"continuously since the turn began")
            applied(EN + "702.10b")
        if "defender" in keywords:
            applied(EN + "702.3b")
            raise IllegalAction(EN + "702.3b", f"{obj.card} has defender and cannot attack")
        _check_defender(game, obj, defender)
        st.attackers[oid] = defender
        st.attacked.append((obj.uid, obj.controller))
    applied(EN + "508.1c")
    tapping = []
    for oid in st.attackers:
        obj = st.objects[oid]
        if "vigilance" in game.keywords(obj):
            applied(EN + "702.20b")
        else:
            applied(EN + "508.1f")
            tapping.append(obj)
    tap_all(game, tapping, True)
    applied(EN + "508.3a")
    emit(game, [Event("attacks", obj=oid, player=_defending_player(game, d)) for oid, d in st.attackers.items()])


def _check_defender(game, attacker, defender: tuple) -> None:
    st = game.state
    kind, ref = defender
    if kind == "P":
        if ref == attacker.controller or not st.players[ref].in_game:
            raise IllegalAction(EN + "508.1b", f"{attacker.card} can attack only an opponent in the game")
    else:
        pw = st.objects.get(ref)
        if pw is None or "planeswalker" not in game.characteristics(pw).types or pw.controller == attacker.controller:
            raise IllegalAction(EN + "508.1b", f"{attacker.card} can attack only an opponent or a planeswalker an "
                                               f"opponent controls")
    applied(EN + "508.1b")


def _defending_player(game, defender: tuple) -> int:
    kind, ref = defender
    return ref if kind == "P" else game.state.objects[ref].controller


@enforces(EN + "509.1", EN + "509.1a", EN + "509.1b", EN + "509.1h", EN + "702.9b", EN + "702.17b",
          EN + "702.16f", EN + "509.3a")
def declare_blockers(game, player: int, declaration: list[tuple[int, int]]) -> None:
    """A defending player declares blockers: each blocks one creature attacking them or their planeswalkers."""
    st = game.state
    applied(EN + "509.1")
    for blocker_id, attacker_id in declaration:
        blocker = _creature(game, blocker_id, player, "block")
        applied(EN + "509.1a")
        if blocker_id in st.blockers:
            raise IllegalAction(EN + "509.1a", f"{blocker.card} can block only one creature")
        if attacker_id not in st.attackers or _defending_player(game, st.attackers[attacker_id]) != player:
            raise IllegalAction(EN + "509.1a", f"{blocker.card} can block only a creature attacking "
                                               f"{st.players[player].name} or their planeswalkers")
        _check_evasion(game, blocker, st.objects[attacker_id])
        st.blockers[blocker_id] = (attacker_id,)
        if attacker_id not in st.blocked:
            applied(EN + "509.1h")
            st.blocked.append(attacker_id)
    if declaration:
        applied(EN + "509.3a")
        emit(game, [Event("blocks", obj=b, player=player, source=a[0]) for b, a in st.blockers.items()])


def _check_evasion(game, blocker, attacker) -> None:
    applied(EN + "509.1b")
    attacks, blocks = game.keywords(attacker), game.keywords(blocker)
    if "flying" in attacks:
        applied(EN + "702.9b")
        if "flying" not in blocks and "reach" not in blocks:
            raise IllegalAction(EN + "702.9b", f"{attacker.card} has flying: {blocker.card} cannot block it")
        if "reach" in blocks:
            applied(EN + "702.17b")
    colors = game.characteristics(blocker).colors
    if any(f"protection:{c}" in attacks for c in colors):
        applied(EN + "702.16f")
        raise IllegalAction(EN + "702.16f", f"{attacker.card} has protection: {blocker.card} cannot block it")


def has_first_strike(game) -> bool:
    st = game.state
    return any("first_strike" in game.keywords(st.objects[oid]) for oid in [*st.attackers, *st.blockers]
               if oid in st.objects)


@enforces(EN + "510.1", EN + "510.1a", EN + "510.1b", EN + "510.1c", EN + "510.1d", EN + "510.4", EN + "702.7b",
          EN + "702.19b")
def assign_combat_damage(game, first_strike_step: bool) -> list[tuple[object, object, list[tuple]]]:
    """Each attacking and blocking creature assigns combat damage equal to its power: (creature, its
    characteristics, [(recipient, amount)]) for each creature that assigns any.  The same under every rule set."""
    st = game.state
    applied(EN + "510.1")
    if first_strike_step:
        applied(EN + "510.4")
        applied(EN + "702.7b")
    assignments: list[tuple[object, object, list[tuple]]] = []
    for oid in [*st.attackers, *st.blockers]:
        obj = st.objects.get(oid)
        if obj is None or obj.zone != BATTLEFIELD or not _strikes_now(game, obj, first_strike_step):
            continue
        power = game.power(obj) or 0
        if power <= 0:
            continue
        applied(EN + "510.1a")
        assignments.append((obj, game.characteristics(obj), _assign(game, obj, power)))
    return assignments


@enforces(EN + "510.2")
def combat_damage(game, first_strike_step: bool) -> None:
    """Today's rules: the assigned combat damage is dealt at once, as the step begins (it does not use the stack)."""
    assignments = assign_combat_damage(game, first_strike_step)
    applied(EN + "510.2")
    for obj, ch, targets in assignments:  # dealt simultaneously: every assignment was made first
        deal_damage(game, obj, ch, targets, combat=True)


def _strikes_now(game, obj, first_strike_step: bool) -> bool:
    first = "first_strike" in game.keywords(obj)
    if first_strike_step:
        if first:
            obj.memory["struck"] = game.state.turn
        return first
    return obj.memory.get("struck") != game.state.turn


def _assign(game, obj, power: int) -> list[tuple]:
    st = game.state
    if obj.id in st.blockers:
        applied(EN + "510.1d")
        blocked = [a for a in st.blockers[obj.id] if a in st.objects]
        return [(object_target(blocked[0]), power)] if blocked else []
    if obj.id not in st.blocked:
        applied(EN + "510.1b")
        return [(st.attackers[obj.id], power)] if _still_there(game, st.attackers[obj.id]) else []
    applied(EN + "510.1c")
    out, left = [], power
    blockers = [b for b, attacked in st.blockers.items() if obj.id in attacked and b in st.objects]
    for b in blockers:
        blocker = st.objects[b]
        lethal = max((game.toughness(blocker) or 0) - blocker.damage, 0)
        if "deathtouch" in game.keywords(obj):
            lethal = min(lethal, 1)
        n = left if b == blockers[-1] and "trample" not in game.keywords(obj) else min(lethal, left)
        if n:
            out.append((object_target(b), n))
        left -= n
    if left > 0 and "trample" in game.keywords(obj) and _still_there(game, st.attackers[obj.id]):
        applied(EN + "702.19b")
        out.append((st.attackers[obj.id], left))
    return out


def _still_there(game, defender: tuple) -> bool:
    kind, ref = defender
    return game.state.players[ref].in_game if kind == "P" else ref in game.state.objects


@enforces(EN + "511.3")
def end_combat(game) -> None:
    """As the end of combat step ends, all creatures and planeswalkers are removed from combat."""
    st = game.state
    if st.attackers or st.blockers:
        applied(EN + "511.3")
    st.attackers, st.blockers, st.blocked = {}, {}, []

