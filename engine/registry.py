"""The traceability catalogue: which engine function enforces which rule.

    @enforces("601.2f", "601.7")
    def determine_total_cost(...): ...

registers the function into one :class:`Registry`, the way spaCy registers
components.  Tools query the registry (``kb trace``, ``kb coverage``, the
build's ``engine_functions``/``enforces`` tables); nothing is parsed from
comments.  The decorator returns the function unchanged, so enforcing code
costs nothing at run time.

A citation is a rule number of the German 2024 rules (``"601.2f"``) or an
edition-qualified number (``"de-1999/422.1"``) for rules the 2024 chapter 6
does not contain (priority, timing, illegal actions, state-based actions).

Which rules a step *applied* is recorded by :class:`Tracer`.  An enforcing
function says so itself, at the point where the rule's condition held and the
rule changed or checked something: ``applied("608.2b")``.  The rule must be one
the calling function cites (a wrong call is a programming error and raises).
While a tracer is active a profile hook also notes every registered function
that was merely *entered*, so that a trace can show the difference.
"""
from __future__ import annotations

import importlib
import inspect
import linecache
import pkgutil
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .paths import ROOT

#: the edition a bare rule number refers to
DEFAULT_EDITION = "de-2024"
#: the prefix of a citation of the English rules, for rules the German chapter lacks (``EN + "704.5k"``)
EN = "en-2024-11-08/"

_NUMBER = re.compile(r"^\d{3}(?:\.\d+[a-z]?)?$")


@dataclass(frozen=True, order=True)
class Citation:
    edition: str
    number: str

    @property
    def key(self) -> str:
        """The ``rules.key`` of the knowledge base: ``de-2024/601.2f``."""
        return f"{self.edition}/{self.number}"

    @property
    def family(self) -> str:
        return self.number.split(".")[0]

    def __str__(self) -> str:
        return self.number if self.edition == DEFAULT_EDITION else self.key


def parse_citation(text: str) -> Citation:
    """``"601.2f"`` -> de-2024/601.2f; ``"de-1999/422.1"`` -> de-1999/422.1."""
    edition, _, number = text.strip().rpartition("/")
    edition = edition or DEFAULT_EDITION
    number = number.strip().rstrip(".")
    if not _NUMBER.match(number):
        raise ValueError(f"not a rule number: {text!r}")
    return Citation(edition, number)


@dataclass
class EnforcingFunction:
    """A registered enforcing function: where it is defined and the rules it cites (one trace link per rule)."""

    qualname: str  # "engine.casting.determine_total_cost"
    module: str
    file: str  # repository-relative path
    line: int
    doc: str
    citations: tuple[Citation, ...]
    func: Callable | None = field(repr=False, compare=False, default=None)


def _def_line(code) -> int:
    """The line of the ``def`` statement (``co_firstlineno`` is the first decorator's line)."""
    line = code.co_firstlineno
    for offset in range(50):
        text = linecache.getline(code.co_filename, line + offset).lstrip()
        if text.startswith(("def ", "async def ")):
            return line + offset
    return line


class Registry:
    def __init__(self) -> None:
        self.links: dict[str, EnforcingFunction] = {}
        self.by_code: dict[object, EnforcingFunction] = {}
        #: (a function's code, a rule it applied as written) -> the rule, checked against its @enforces once
        self.checked: dict[tuple[object, str], Citation] = {}

    def register(self, func: Callable, citations: Iterable[str]) -> EnforcingFunction:
        cites = tuple(parse_citation(c) for c in citations)
        if not cites:
            raise ValueError(f"{func.__qualname__}: @enforces needs at least one rule")
        code = func.__code__
        path = Path(code.co_filename).resolve()
        try:
            file = path.relative_to(ROOT).as_posix()
        except ValueError:
            file = path.as_posix()
        qualname = f"{func.__module__}.{func.__qualname__}"
        doc = inspect.cleandoc(func.__doc__ or "").split("\n\n")[0].replace("\n", " ")
        link = EnforcingFunction(qualname, func.__module__, file, _def_line(code), doc, cites, func)
        if qualname in self.links and self.links[qualname].func is not func:
            raise ValueError(f"{qualname} registered twice")
        self.links[qualname] = link
        self.by_code[code] = link
        return link

    def citations(self) -> set[Citation]:
        return {c for link in self.links.values() for c in link.citations}

    def functions_for(self, citation: Citation) -> list[EnforcingFunction]:
        return [link for link in self.links.values() if citation in link.citations]

    def __len__(self) -> int:
        return len(self.links)

    def __iter__(self):
        return iter(sorted(self.links.values(), key=lambda f: (f.file, f.line)))


REGISTRY = Registry()


def enforces(*rules: str, registry: Registry | None = None):
    """Register the decorated function as enforcing ``rules`` (returned unchanged)."""

    def register(func):
        (registry if registry is not None else REGISTRY).register(func, rules)
        return func

    return register


def check_citations(registry: Registry, known: dict[str, set[str]]) -> list[str]:
    """Citations of rules that do not exist: one message per (function, rule).

    ``known`` maps an edition to the set of its normalised rule numbers.
    """
    problems = []
    for link in registry:
        for c in link.citations:
            if c.edition not in known:
                problems.append(f"{link.qualname} ({link.file}:{link.line}) cites {c.key}: unknown edition")
            elif c.number not in known[c.edition]:
                problems.append(f"{link.qualname} ({link.file}:{link.line}) cites {c.key}, which does not exist")
    return problems


def load_all() -> Registry:
    """Import every engine module so that all enforcing functions are registered."""
    package = __name__.rpartition(".")[0]  # "engine"
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name != "bench":
            importlib.import_module(f"{package}.{info.name}")
    return REGISTRY


#: the tracers recording now (innermost last); empty while nothing is traced, which makes applied() free
_ACTIVE: list["Tracer"] = []


def applied(rule: str) -> None:
    """The calling enforcing function applied ``rule`` (its condition held; it changed or checked something).

    Called from a registered function or from a helper it calls (the nearest registered function on the call
    stack, at most :data:`HELPER_DEPTH` calls up, is the one that applied it)."""
    if _ACTIVE:
        _ACTIVE[-1].record(rule, sys._getframe(1))


#: how many helper calls away from its enforcing function applied() may be called
HELPER_DEPTH = 4


class Tracer:
    """Records, while active, the rules applied (:func:`applied`) and the registered functions entered.

        with Tracer() as t:
            game.cast(...)
        t.citations()  # rules applied, in first-applied order: ["601.2a", "601.2c", ...]
        t.links()      # registered functions entered (applied or not), in first-call order
    """

    def __init__(self, registry: Registry | None = None):
        self.registry = registry if registry is not None else REGISTRY
        self.calls: list[EnforcingFunction] = []
        #: (rule applied, the function that applied it), in order
        self.applications: list[tuple[Citation, EnforcingFunction]] = []

    def record(self, rule: str, frame) -> None:
        link, f = None, frame
        for _ in range(HELPER_DEPTH + 1):
            if f is None:
                break
            link = self.registry.by_code.get(f.f_code)
            if link is not None:
                break
            f = f.f_back
        if link is None:
            raise RuntimeError(f"applied({rule!r}) called from {frame.f_code.co_name}, which is neither a registered "
                               f"enforcing function nor a helper one calls")
        citation = self.registry.checked.get((f.f_code, rule))
        if citation is None:
            citation = parse_citation(rule)
            if citation not in link.citations:
                raise RuntimeError(f"{link.qualname} applied {rule}, which it does not cite in @enforces")
            self.registry.checked[f.f_code, rule] = citation
        self.applications.append((citation, link))

    def _hook(self) -> Callable:
        """The profile hook: called on every call and return of every function while the tracer is active, so it
        does as little as it can (a closure over what it needs: no attribute look-ups)."""
        registered, calls = self.registry.by_code.get, self.calls.append

        def hook(frame, event, arg):
            if event == "call":
                link = registered(frame.f_code)
                if link is not None:
                    calls(link)

        return hook

    def __enter__(self):
        self._previous = sys.getprofile()
        sys.setprofile(self._hook())
        _ACTIVE.append(self)
        return self

    def __exit__(self, *exc):
        _ACTIVE.remove(self)
        sys.setprofile(self._previous)
        return False

    def links(self) -> list[EnforcingFunction]:
        """The registered functions entered, in first-call order."""
        return _unique(self.calls, lambda link: link.qualname)

    def citations(self) -> list[Citation]:
        """The rules applied, in first-applied order."""
        return _unique([c for c, _ in self.applications], lambda c: c)

    def appliers(self) -> list[tuple[Citation, EnforcingFunction]]:
        """(rule, function) for each rule applied, once each, in first-applied order."""
        return _unique(self.applications, lambda pair: (pair[0], pair[1].qualname))

    def entered_only(self) -> list[tuple[Citation, EnforcingFunction]]:
        """(rule, function) for the rules cited by functions that were entered but did not apply them."""
        done = {(c, link.qualname) for c, link in self.applications}
        return [(c, link) for link in self.links() for c in link.citations if (c, link.qualname) not in done]


def _unique(items, key) -> list:
    seen, out = set(), []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


class silenced:
    """Nothing is recorded as applied inside (a trial application that may not happen: a dependency test)."""

    def __enter__(self):
        self._saved = _ACTIVE[:]
        _ACTIVE.clear()
        return self

    def __exit__(self, *exc):
        _ACTIVE[:] = self._saved
        return False
