"""Mana costs, mana pools and the other parts a cost can have.

Notation is the project's canonical one (see ``ingest.symbols``):
``{2}{B}{B}``, ``{X}{R}``, hybrid ``{R/G}``, colourless ``{C}``, tap ``{T}``,
untap ``{Q}``.  These are value types: immutable, hashable, cheap to share
between copies of the game state.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

#: indices of a mana pool / coloured cost vector
MANA_TYPES = ("W", "U", "B", "R", "G", "C")
IDX = {c: i for i, c in enumerate(MANA_TYPES)}
_SYMBOL = re.compile(r"\{([^{}]+)\}")


class CostSyntaxError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class ManaCost:
    generic: int = 0
    colored: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    x: int = 0  # number of {X} symbols
    hybrid: tuple[str, ...] = ()  # each entry lists the colours that may pay it, e.g. "RG"

    @staticmethod
    def parse(text: str) -> "ManaCost":
        text = (text or "").strip()
        if text in ("", "{0}"):
            return ZERO
        pos, generic, colored, x, hybrid = 0, 0, [0] * 6, 0, []
        for m in _SYMBOL.finditer(text):
            if text[pos:m.start()].strip():
                raise CostSyntaxError(f"unexpected {text[pos:m.start()]!r} in mana cost {text!r}")
            pos = m.end()
            sym = m.group(1).upper()
            if sym.isdigit():
                generic += int(sym)
            elif sym == "X":
                x += 1
            elif sym in IDX:
                colored[IDX[sym]] += 1
            elif re.fullmatch(r"[WUBRG](/[WUBRG])+", sym):
                hybrid.append(sym.replace("/", ""))
            else:
                raise CostSyntaxError(f"unknown mana symbol {{{sym}}} in {text!r}")
        if text[pos:].strip():
            raise CostSyntaxError(f"unexpected {text[pos:]!r} in mana cost {text!r}")
        return ManaCost(generic, tuple(colored), x, tuple(hybrid))

    def __str__(self) -> str:
        parts = ["{X}"] * self.x
        if self.generic or (not any(self.colored) and not self.hybrid and not self.x):
            parts.append(f"{{{self.generic}}}")
        parts += ["{" + "/".join(h) + "}" for h in self.hybrid]
        for c, n in zip(MANA_TYPES, self.colored, strict=True):
            parts += ["{" + c + "}"] * n
        return "".join(parts)

    @property
    def amount(self) -> int:
        """How much mana paying this takes (``{X}`` counts as 0)."""
        return self.generic + sum(self.colored) + len(self.hybrid)

    def mana_value(self, x_value: int = 0) -> int:
        return self.amount + self.x * x_value

    def colors(self) -> frozenset[str]:
        out = {c for c, n in zip(MANA_TYPES[:5], self.colored, strict=False) if n}  # colourless is no colour
        for h in self.hybrid:
            out.update(h)
        return frozenset(out)

    def with_x(self, x_value: int) -> "ManaCost":
        """``{X}`` replaced by its announced value (each ``{X}`` counts ``x_value``)."""
        if not self.x:
            return self
        return ManaCost(self.generic + self.x * x_value, self.colored, 0, self.hybrid)

    def announced(self, colors: tuple[str, ...]) -> "ManaCost":
        """Each hybrid symbol replaced by the colour announced for it (601.2b)."""
        if not colors:
            return self
        colored = list(self.colored)
        for c in colors:
            colored[IDX[c]] += 1
        return ManaCost(self.generic, tuple(colored), self.x, self.hybrid[len(colors):])

    def plus(self, other: "ManaCost") -> "ManaCost":
        return ManaCost(self.generic + other.generic,
                        tuple(a + b for a, b in zip(self.colored, other.colored, strict=True)),
                        self.x + other.x, self.hybrid + other.hybrid)

    def minus(self, other: "ManaCost") -> "ManaCost":
        """Reduce by ``other``: generic by generic, each colour by its colour; never below zero.

        A coloured reduction the cost has no symbol for reduces generic mana instead.
        """
        colored = list(self.colored)
        generic = self.generic - other.generic
        for i, n in enumerate(other.colored):
            take = min(n, colored[i])
            colored[i] -= take
            generic -= n - take
        return ManaCost(max(generic, 0), tuple(colored), self.x, self.hybrid)

    def pad_to(self, minimum: int) -> "ManaCost":
        """Add generic mana until paying takes at least ``minimum`` mana."""
        if self.amount >= minimum:
            return self
        return ManaCost(self.generic + minimum - self.amount, self.colored, self.x, self.hybrid)


ZERO = ManaCost()


def pool_from(text: str) -> list[int]:
    """``"{B}{B}{C}"`` -> a pool vector; generic symbols are not mana and raise."""
    cost = ManaCost.parse(text)
    if cost.generic or cost.x or cost.hybrid:
        raise CostSyntaxError(f"{text!r} is not a list of mana (use {{W}}{{U}}{{B}}{{R}}{{G}}{{C}})")
    return list(cost.colored)


def pool_str(pool: list[int]) -> str:
    s = "".join("{" + c + "}" * 1 for c, n in zip(MANA_TYPES, pool, strict=False) for _ in range(n))  # any list
    return s or "empty"


def find_payment(cost: ManaCost, pool: list[int], spend: list[int] | None = None) -> list[int] | None:
    """The mana to take from ``pool`` to pay ``cost`` (no ``{X}`` left), or None.

    ``spend`` is the player's explicit choice; without it, coloured and hybrid
    symbols take their colour and generic mana is paid colourless first, then
    from the colours the pool holds most of.
    """
    if spend is not None:
        if any(s > p for s, p in zip(spend, pool, strict=False)):  # a player's list, as given
            return None
        return spend if _covers(cost, spend) else None
    left = list(pool)
    used = [0] * 6
    for i, n in enumerate(cost.colored):
        if left[i] < n:
            return None
        left[i] -= n
        used[i] += n
    halves = _hybrid_halves(cost.hybrid, left)
    if halves is None:
        return None
    for i in halves:
        left[i] -= 1
        used[i] += 1
    need = cost.generic
    for i in sorted(range(6), key=lambda i: (i != 5, -left[i])):
        take = min(need, left[i])
        used[i] += take
        need -= take
    return used if need == 0 else None


def _covers(cost: ManaCost, spend: list[int]) -> bool:
    """Does exactly ``spend`` pay ``cost``?"""
    left = list(spend)
    for i, n in enumerate(cost.colored):
        if left[i] < n:
            return False
        left[i] -= n
    return _hybrid_halves(cost.hybrid, left) is not None and sum(left) - len(cost.hybrid) == cost.generic


def _hybrid_halves(hybrid: tuple[str, ...], left: list[int]) -> list[int] | None:
    """The mana type that pays each hybrid symbol (107.4e: either of its colours) from the mana ``left``, or None
    when no choice pays them all: every choice is tried, the half ``left`` holds more of first (ties in the
    symbol's order), so the first found is the one a greedy choice makes whenever that one succeeds."""
    if not hybrid:
        return []
    for i in sorted((IDX[c] for c in hybrid[0]), key=lambda i: -left[i]):
        if left[i]:
            left[i] -= 1
            rest = _hybrid_halves(hybrid[1:], left)
            left[i] += 1
            if rest is not None:
                return [i, *rest]
    return None


@dataclass(frozen=True, slots=True)
class Requirement:
    """Objects a cost asks for: ``count`` objects matching ``filter`` (or the source itself)."""

    filter: object = None  # engine.filters.Filter
    count: int | str = 1  # int, "X" or "any"
    itself: bool = False


@dataclass(frozen=True, slots=True)
class Cost:
    """A cost: mana plus any other actions (601.2f lists them: tap, sacrifice, discard, …)."""

    mana: ManaCost = ZERO
    tap: bool = False
    untap: bool = False
    sacrifice: tuple[Requirement, ...] = ()
    discard: tuple[Requirement, ...] = ()
    life: int | str = 0
    loyalty: int | None = None  # loyalty symbol: +n puts, -n removes counters
    counters: tuple[tuple[str, int], ...] = ()  # "put a -1/-1 counter on this": (kind, how many) put on the source

    def plus(self, other: "Cost") -> "Cost":
        life: int | str
        if other.life == 0:
            life = self.life
        elif self.life == 0:
            life = other.life
        elif isinstance(self.life, int) and isinstance(other.life, int):
            life = self.life + other.life
        else:
            raise CostSyntaxError("two variable life costs")
        loyalty = None
        if self.loyalty is not None or other.loyalty is not None:
            loyalty = (self.loyalty or 0) + (other.loyalty or 0)
        return Cost(self.mana.plus(other.mana), self.tap or other.tap, self.untap or other.untap,
                    self.sacrifice + other.sacrifice, self.discard + other.discard, life, loyalty,
                    self.counters + other.counters)

    def __str__(self) -> str:
        parts = []
        if self.loyalty is not None:
            parts.append(f"[{self.loyalty:+d}]" if self.loyalty else "[0]")
        if self.mana != ZERO or not (self.tap or self.untap or self.sacrifice or self.discard or self.life
                                     or self.loyalty is not None or self.counters):
            parts.append(str(self.mana))
        if self.tap:
            parts.append("{T}")
        if self.untap:
            parts.append("{Q}")
        for r in self.sacrifice:
            parts.append("sacrifice " + ("this" if r.itself else f"{r.count}"))
        for r in self.discard:
            parts.append(f"discard {r.count}")
        if self.life:
            parts.append(f"pay {self.life} life")
        for kind, n in self.counters:
            parts.append(f"put {n} {kind}")
        return ", ".join(parts)


NO_COST = Cost()


def parse_cost_string(text: str) -> Cost:
    """``"{2}{T}"`` -> mana {2} plus tap; ``"{Q}"`` untap."""
    tap = untap = False
    rest = []
    for m in _SYMBOL.finditer(text or ""):
        sym = m.group(1).upper()
        if sym in ("T", "TAP"):
            tap = True
        elif sym in ("Q", "UNTAP", "ENTTAP"):
            untap = True
        else:
            rest.append(m.group(0))
    stripped = _SYMBOL.sub("", text or "").replace(",", "").strip()
    if stripped:
        raise CostSyntaxError(f"unexpected {stripped!r} in cost {text!r}")
    return Cost(mana=ManaCost.parse("".join(rest)), tap=tap, untap=untap)


def describe(step: tuple) -> str:
    """A step of how a total cost came about, ``("+ {} ({})", cost, source)``, as text (made only when shown)."""
    template, *values = step
    return template.format(*values)


@dataclass(frozen=True, slots=True)
class TotalCost:
    """The locked total cost of one spell or ability (601.2f) and how it came about."""

    cost: Cost
    steps: tuple[str, ...] = field(default=())
