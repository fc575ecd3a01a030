"""Stickers (en 123) as far as the layers need them: each sticker is a continuous effect with its own timestamp.

A minimal model: the effect ``sticker`` puts a sticker on a permanent its controller owns (123.3b) —
a name sticker (``name_word``, 123.6: a text-changing effect that adds the word to the object's name
after ``position`` words, at the end if the name has fewer, 612.9), a power and toughness sticker
(``set_power``/``set_toughness``, 123.8: layer 7b) or an ability sticker (``keywords``, 123.7: layer 6).
The sticker receives a timestamp as it is put on the object; when the object receives a new
timestamp, its stickers receive new ones immediately after, in the same order (613.7k).  Stickers
on permanents only: sticker sheets, tickets and stickers in other zones are not modelled.
"""
from __future__ import annotations

from dataclasses import replace

from .continuous import RESTAMPED, Continuous, new_timestamp, parts_of, refresh
from .effects import Resolution, effect
from .registry import EN, applied, enforces
from .state import BATTLEFIELD

#: what a sticker may carry (the keys of a continuous effect it becomes)
STICKER_KEYS = ("name_word", "position", "set_power", "set_toughness", "keywords")


@effect("sticker", required=("what",), optional=STICKER_KEYS)
@enforces("613.7k", EN + "123.3b", "612.9")
def put_sticker(ctx: Resolution, spec: dict) -> None:
    """Put a sticker on each object named (one its controller owns, 123.3b): it receives a timestamp now
    (613.7k); a name sticker is a text-changing effect (612.9)."""
    st = ctx.state
    changes = {k: spec[k] for k in STICKER_KEYS if k in spec}
    for obj in ctx.objects(spec["what"]):
        if obj.zone != BATTLEFIELD or obj.owner != ctx.controller:
            applied(EN + "123.3b")  # that part of the effect does nothing
            continue
        applied("613.7k")
        if "name_word" in changes:
            applied("612.9")
        st.effects.append(Continuous(parts_of(changes), new_timestamp(st), ctx.controller, "sticker", None, 0,
                                     frozenset({obj.id}), None, False, "sticker"))
    refresh(ctx.game)


@enforces("613.7k")
def stickers_follow(game, obj) -> None:
    """``obj`` received a new timestamp: each sticker on it receives a new one immediately after, their relative
    order unchanged (613.7k)."""
    st = game.state
    mine = sorted((e for e in st.effects if getattr(e, "duration", "") == "sticker" and obj.id in e.locked),
                  key=lambda e: e.timestamp)
    if not mine:
        return
    applied("613.7k")
    renewed = {id(e): replace(e, timestamp=new_timestamp(st)) for e in mine}
    st.effects = [renewed.get(id(e), e) for e in st.effects]


RESTAMPED.append(stickers_follow)
