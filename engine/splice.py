"""Splice (en 702.47): a spell gains the rules text of cards revealed from its caster's hand (612.10).

A card with ``statics = [{ kind = "splice", onto = "Arcane", cost = "{1}{R}" }]`` may be revealed as its
owner casts a spell with that subtype (scenario option ``splice: CARD``): the spell gains the card's
rules text — its targets and effects, after the spell's own, which stay as they are (612.10, 702.47b,
702.47c) — and the splice cost is paid as an additional cost (702.47a).  The gained text is a
text-changing effect on the spell (layer 3, :func:`engine.textchange.add_spliced`) that ends when the
spell leaves the stack (702.47e: its object is gone).  The card stays in the hand.  Modelled for spells
with one mode; a target word of the spliced card must differ from the spell's own.
"""
from __future__ import annotations

from .continuous import Continuous, new_timestamp
from .errors import IllegalAction
from .registry import EN, applied, enforces


def splice_ability(card):
    return next((s for s in card.statics if s.kind == "splice"), None)


@enforces(EN + "702.47a", EN + "702.47b", "612.10")
def splice_onto(game, player: int, spell, names: tuple) -> None:
    """Reveal the named cards from ``player``'s hand as the spell is cast: each must have splice onto a quality
    the spell has, at most once each (702.47b); the spell gains their rules text (612.10)."""
    if not names:
        return
    st = game.state
    ch = game.characteristics(spell)
    spliced = []
    for name in names:
        oid = next((o for o in st.players[player].hand if st.objects[o].card == name), None)
        if oid is None:
            raise IllegalAction(EN + "702.47a", f"{name}: splice works only for a card in your hand")
        card = game.db.cards[name]
        ability = splice_ability(card)
        if ability is None or ability.params["onto"] not in ch.subtypes:
            raise IllegalAction(EN + "702.47a", f"{name} can't be spliced onto {ch.name}")
        if name in spliced:
            applied(EN + "702.47b")
            raise IllegalAction(EN + "702.47b", f"{name}: one card is spliced onto a spell at most once")
        if card.spell is None or ch.spell is None or len(ch.spell.modes) > 1 or len(card.spell.modes) > 1:
            raise IllegalAction(EN + "702.47a", "splicing modal spells is not modelled")
        own = {s.name for s in ch.spell.slots()}
        if own & {s.name for s in card.spell.slots()}:
            raise IllegalAction(EN + "702.47a", f"{name}: its target words must differ from {ch.name}'s (not modelled)")
        spliced.append(name)
    applied(EN + "702.47a")
    applied("612.10")
    texts = tuple((game.db.cards[n].spell, splice_ability(game.db.cards[n]).params["cost"]) for n in spliced)
    st.effects.append(Continuous({"3": {"splice": texts}}, new_timestamp(st), player, ch.name, spell.id, spell.uid,
                                 frozenset({spell.id}), "spell", False, "indefinite"))

