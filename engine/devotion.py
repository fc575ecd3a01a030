"""A player's devotion to colours (700.5): the mana symbols of those colours among the mana costs of the
permanents the player controls — a hybrid symbol of two of them counts once."""
from __future__ import annotations

from .costs import MANA_TYPES
from .registry import EN, applied, enforces


@enforces(EN + "700.5", EN + "700.5a")
def devotion(game, player: int, colors) -> int:
    """Devotion of ``player`` to ``colors`` (W U B R G), read from the mana costs as the layers give them (700.5a:
    copy, control and text-changing effects count; the control written back to the object is layer 2's)."""
    applied(EN + "700.5")
    wanted = set(colors)
    st = game.state
    total = 0
    for oid in st.battlefield:
        obj = st.objects[oid]
        if obj.controller != player:
            continue
        cost = game.characteristics(obj).mana_cost
        total += sum(n for c, n in zip(MANA_TYPES, cost.colored) if c in wanted)
        total += sum(1 for h in cost.hybrid if wanted & set(h))
    if total:
        applied(EN + "700.5a")
    return total
