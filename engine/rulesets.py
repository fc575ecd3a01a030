"""Rule sets: which edition's rules a game follows (data/rulesets.toml), read and checked.

A rule set names the editions whose rules the engine follows and, for each *feature* where two
editions differ (how mana leaves a pool, how combat damage is dealt, the legend rule …), the
*variant* that applies.  :mod:`engine.variants` maps each variant to the engine function that
enforces it, cited against the rule of its own edition; a game selects its functions once, when it
begins (``game.variants``), so that no code asks which year it is.

Which rules a set *has*: the rules of its editions, the rules of its ``unchanged`` editions (the
engine enforces an unchanged rule once and cites today's number; the knowledge base finds the
counterpart through the alignment) — except the rules only the variants the set does not select cite.
Bad input (an unknown set, a broken file, an unknown feature or variant) is a :class:`RuleSetError`
naming the file and line.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .paths import ROOT
from .registry import Citation, parse_citation

RULESETS_FILE = ROOT / "data" / "rulesets.toml"


class RuleSetError(Exception):
    """A rule set that cannot be used: the message names the file (and line) and what is wrong."""


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    editions: tuple[str, ...]
    unchanged: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    #: feature -> the variant this set follows
    variants: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    #: where the set is defined: "data/rulesets.toml:12"
    source: str = ""
    #: the edition the set's rules were written in (alignments and word diffs between sets go through it)
    original: str = ""

    @property
    def follows(self) -> tuple[str, ...]:
        """Every edition whose rule numbers the set's engine functions cite."""
        return self.editions + tuple(e for e in self.unchanged if e not in self.editions)

    def lacks(self, citation: Citation) -> str | None:
        """Why this set does not have the rule ``citation`` (None: it has it)."""
        from .variants import cited_only_by_others

        if citation.edition not in self.follows:
            return f"rule set {self.name} follows {', '.join(self.follows)}, not {citation.edition}"
        other = cited_only_by_others(self).get(citation)
        if other is not None:
            feature, variant = other
            return (f"rule set {self.name} follows the variant {self.variants[feature]!r} of {feature}; "
                    f"{citation.key} belongs to the variant {variant!r}")
        return None

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class RuleSets:
    sets: dict[str, RuleSet]
    default: str
    path: str

    def get(self, name: str | None) -> RuleSet:
        """The rule set called ``name`` (or one of its aliases); the default for None."""
        if name is None:
            return self.sets[self.default]
        for rs in self.sets.values():
            if name == rs.name or name in rs.aliases:
                return rs
        known = ", ".join(f"{rs.name} ({', '.join(rs.aliases)})" if rs.aliases else rs.name
                          for rs in self.sets.values())
        raise RuleSetError(f"unknown rule set {name!r}; {self.path} defines: {known}")

    def names(self) -> list[str]:
        return list(self.sets)


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def _line_of(text: str, needle: str) -> int | None:
    for no, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith(needle):
            return no
    return None


def _where(shown: str, text: str, needle: str) -> str:
    line = _line_of(text, needle)
    return f"{shown}:{line}" if line else shown


def parse(text: str, shown: str) -> RuleSets:
    """Read the rule sets of ``text`` (the contents of ``shown``); RuleSetError naming file:line."""
    from .variants import FEATURES

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RuleSetError(f"{shown}: not valid TOML ({e})") from None
    tables = data.get("rulesets")
    if not isinstance(tables, dict) or not tables:
        raise RuleSetError(f"{shown}: no [rulesets.NAME] tables")
    sets = {}
    for name, table in tables.items():
        header = f"[rulesets.{name}]"
        at = _where(shown, text, header)
        editions = table.get("editions")
        if not isinstance(editions, list) or not editions or not all(isinstance(e, str) for e in editions):
            raise RuleSetError(f"{at}: rule set {name}: 'editions' must list one or more edition ids")
        variants = table.get("variants", {})
        for feature, variant in variants.items():
            vat = _where(shown, text, f"[rulesets.{name}.variants]")
            if feature not in FEATURES:
                raise RuleSetError(f"{vat}: rule set {name}: unknown feature {feature!r} "
                                   f"(features: {', '.join(FEATURES)})")
            if variant not in FEATURES[feature]:
                raise RuleSetError(f"{vat}: rule set {name}: {feature} has no variant {variant!r} "
                                   f"(variants: {', '.join(FEATURES[feature])})")
        missing = [f for f in FEATURES if f not in variants]
        if missing:
            raise RuleSetError(f"{at}: rule set {name} does not say which variant of {', '.join(missing)} it follows")
        sets[name] = RuleSet(name, str(table.get("title", name)), tuple(editions), tuple(table.get("unchanged", ())),
                             tuple(table.get("aliases", ())), dict(variants), at,
                             str(table.get("original", editions[0])))
    default = data.get("default")
    if default not in sets:
        raise RuleSetError(f"{_where(shown, text, 'default')}: 'default' must name one of the rule sets "
                           f"({', '.join(sets)})")
    return RuleSets(sets, str(default), shown)


def load(path: Path | str | None = None) -> RuleSets:
    """The rule sets of ``path`` (default: data/rulesets.toml), read once."""
    return _load(str(Path(path or RULESETS_FILE).resolve()))


@lru_cache(maxsize=8)
def _load(path: str) -> RuleSets:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise RuleSetError(f"{_display(p)}: cannot read: {e.strerror}") from None
    return parse(text, _display(p))


def get(name: str | None = None) -> RuleSet:
    """The rule set ``name`` of data/rulesets.toml (the default for None)."""
    return load().get(name)


def citation_of(rule: str) -> Citation | None:
    try:
        return parse_citation(rule)
    except ValueError:
        return None
