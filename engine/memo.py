"""What the engine computes from the board, kept per board version: characteristics (613) and indexes of abilities.

The characteristics of a permanent are a function of the board — the objects on the battlefield and in the
command zone with what they carry (counters, memory, control, attachment, face …), the continuous effects of
resolved spells and abilities, the attacking creatures — and nothing else, except where a number is counted
from the whole game (a characteristic-defining ability, 604.3): such a result is never kept (:func:`outside`).
So what is computed from the board is kept in a :class:`Table` for the state's board version
(``GameState.version``), which is new whenever anything the board is made of changes:

* every object of a state is a :class:`engine.state.Live` object: setting a watched attribute of one on the board
  (control, attachment, face, tapped …) or changing its counters, memory or activations gives its state a new
  version (the version is an :class:`engine.state.Version` record the objects share, not the state itself);
* the lists the board is made of (battlefield, command zone, effects, attackers) are compared with the table's
  copies on every look-up: a list changed in place also starts a new version.

A copy of the state keeps its version (versions are one sequence for all states, so one version is one board):
a rolled-back action and a benchmark cycle that starts from a copy find what was computed before.  Nothing is
kept while rules are traced (a trace shows every layer applied, :mod:`engine.registry`), nor while a
computation of characteristics is going on (an object asked about during its own computation, 613.8).

With :data:`CHECK` set (the test suite sets it), nothing is served from a table: every value is computed again
and compared with the one kept, and a difference raises :class:`Stale` — a change the version missed.
"""
from __future__ import annotations

from .registry import _ACTIVE as TRACING
from .state import new_version

#: compute every value again and compare it with the one kept (the test suite sets this)
CHECK = False
#: how many board versions a game keeps tables for (a state, its rolled-back copies, the one before)
KEEP = 4
#: bumped by every read of something outside the board (a number counted over the game, 604.3): a value computed
#: while it moved is not kept
OUTSIDE = [0]


#: the objects whose characteristics are being computed (engine.layers puts its set here)
COMPUTING: list = [()]


class Stale(AssertionError):
    """A kept value differs from the one computed again: a change to the board did not give it a new version."""


class Table:
    """What was computed from one board: ``values[key]``."""

    __slots__ = ("version", "battlefield", "command", "effects", "attackers", "values")

    def __init__(self, st) -> None:
        self.version = st.version
        self.battlefield, self.command = st.battlefield[:], st.command[:]
        self.effects, self.attackers = st.effects[:], dict(st.attackers)
        self.values: dict = {}

    def holds_for(self, st) -> bool:
        return st.battlefield == self.battlefield and st.effects == self.effects and st.command == self.command \
            and st.attackers == self.attackers


def outside() -> None:
    """Something outside the board was read: the value being computed is not kept."""
    OUTSIDE[0] += 1


def table(game) -> Table | None:
    """The table of the game's board now (a new one if the board changed), or None when nothing may be kept."""
    st = game.state
    if (TRACING and not CHECK) or COMPUTING[0] or not st.live:
        return None
    tables = game.memo
    t = tables.get(st.version)
    if t is not None:
        if t.holds_for(st):
            return t
        st.version = new_version()  # a list of the board changed in place
    t = tables[st.version] = Table(st)
    if len(tables) > KEEP:
        del tables[next(iter(tables))]
    return t


def kept(game, key, compute, comparable: bool = True):
    """``compute()`` for the board now: from its table if it was computed before (and nothing outside the board
    was read then), else computed and kept.  ``comparable``: values computed again are equal when nothing changed
    (not so for records compared by identity, such as the effects in force — checked through what is computed
    from them)."""
    st = game.state
    t = game.memo.get(st.version)
    if t is not None and st.live and not (CHECK or TRACING or COMPUTING[0]) and t.holds_for(st):
        values = t.values
        if key in values:  # the common case, first
            return values[key]
    else:
        t = table(game)
        if t is None:
            return compute()
        values = t.values
        if key in values and not CHECK:
            return values[key]
    before = OUTSIDE[0]
    value = compute()
    if OUTSIDE[0] == before:
        if CHECK and comparable and key in values and values[key] != value:
            raise Stale(f"{key!r}: kept {_short(values[key])}, now {_short(value)} (version {t.version})")
        values[key] = value
    return value


def _short(value) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:300] + " …"
