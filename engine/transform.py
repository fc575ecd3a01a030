"""Double-faced cards entering with their back face up (a minimal model of 712 and 701.28 for 616.1d).

A card with a face ``way = "back"`` is a transforming double-faced card: its front face is the card, its back
face that face (``Obj.face`` names it while it is up).  A replacement effect ``enters_transformed`` ("[Cards]
enter the battlefield transformed") turns the back face up as it enters (712.14a); a card without a back face
is not affected.  Among the effects for entering, one that would have it enter with its back face up is chosen
before the others except self-replacement, control and copy effects (616.1d, :func:`engine.replacement.
replace_event`); the others then see the back face's characteristics (614.12).  Not modelled: transforming a
permanent on the battlefield, modal double-faced cards, melding.
"""
from __future__ import annotations

from .registry import EN, applied, enforces
from .replacement import Replacement, applies_when, handler
from .state import BATTLEFIELD


def back_face(game, obj) -> str | None:
    """The name of the card's back face, if it is a transforming double-faced card."""
    card = game.db.cards.get(obj.card) if obj.card else None
    return next((name for name, face in card.faces.items() if face.way == "back"), None) if card else None


@handler("enters_transformed")
@enforces(EN + "712.14a", EN + "701.28a", "614.1d")
def enters_transformed(game, r: Replacement, ev: dict) -> dict:
    """It enters the battlefield with its back face up (712.14a): from now on it has that face's
    characteristics."""
    applied(EN + "712.14a")
    applied(EN + "701.28a")
    applied("614.1d")
    obj = game.state.objects[ev["obj"]]
    obj.face = back_face(game, obj)
    return ev


@applies_when("enters_transformed")
def _front_face_up(game, r: Replacement, ev: dict) -> bool:
    obj = game.state.objects.get(ev["obj"])
    return obj is not None and obj.zone == BATTLEFIELD and obj.face is None and back_face(game, obj) is not None
