"""Effects that modify the next spell a player casts (611.2f): they begin when that spell is put on the stack.

The effect ``{ do = "next_spell", spells = { types = ["instant"] }, keywords = ["cant_be_countered"] }``
("Der nächste Spontanzauber, den du in diesem Zug wirkst, kann nicht neutralisiert werden") makes a
continuous effect that applies to nothing yet: a spell already on the stack is not affected.  The
next time its controller puts a spell meeting ``spells`` on the stack (601.2a), the effect begins
and applies to that spell (:func:`begin_on`); it lasts until end of turn, like "this turn".
"""
from __future__ import annotations

from dataclasses import replace

from .continuous import LAYER_OF, STATIC_ONLY, Continuous, new_timestamp, parts_of
from .effects import Resolution, effect
from .filters import Filter, matches
from .registry import applied, enforces

#: ``objects`` of an effect that waits for the next spell, and of one that applies to a spell on the stack
WAITING, SPELL = "next_spell", "spell"


@effect("next_spell", required=("spells",), optional=tuple(k for k in LAYER_OF if k not in STATIC_ONLY))
def next_spell(ctx: Resolution, spec: dict) -> None:
    """A continuous effect for the next spell its controller casts that meets ``spells`` (611.2f)."""
    st = ctx.state
    params = {k: v for k, v in spec.items() if k in LAYER_OF}
    st.effects.append(Continuous(parts_of(params), new_timestamp(st), ctx.controller,
                                 ctx.obj.source_card or ctx.obj.card or "", ctx.source_id, 0, frozenset(),
                                 (WAITING, spec["spells"]), False, "end_of_turn"))


@enforces("611.2f")
def begin_on(game, player: int, spell) -> None:
    """``player`` put ``spell`` on the stack (601.2a): each effect waiting for that player's next appropriate
    spell begins now and applies to it (611.2f)."""
    st = game.state
    for i, eff in enumerate(st.effects):
        if not _waits_for(eff, player):
            continue
        flt: Filter = eff.objects[1]
        if matches(game, spell, flt, player):
            applied("611.2f")
            st.effects[i] = replace(eff, locked=frozenset({spell.id}), objects=SPELL)


def _waits_for(eff, player: int) -> bool:
    return isinstance(eff, Continuous) and isinstance(eff.objects, tuple) and eff.objects[0] == WAITING \
        and eff.controller == player
