"""Which rules a scenario verifies — not merely runs: an outcome the rule decides is asserted.

A rule counts as tested by a passing scenario in two ways only:

* **asserted** — an expectation of the scenario names it: ``expect applied: 613.4c``, ``expect order: …``,
  ``expect illegal: 601.2c …`` (the scenario checks that the rule decided the step);
* **decisive** — the scenario is tagged with it, and it fails when the engine functions that enforce the rule
  are disabled (each one made to do nothing and return None, as a mutation test does): its expectations
  depend on what the rule decides.

A function that merely ran while a scenario was played, or a tag the scenario passes without, tests nothing.
"""
from __future__ import annotations

import types
from collections.abc import Iterator
from contextlib import contextmanager

from engine.registry import EnforcingFunction, Registry, parse_citation
from engine.scenario import Result, run_file
from engine.scenario.model import split_list, under

#: the expectations that name the rules they check, and whether only their first word is a rule
RULE_EXPECTATIONS = {"applied": False, "order": False, "illegal": True}


def asserted(res: Result) -> list[str]:
    """Citation keys of the rules a passing scenario's expectations name (``applied``, ``order``, ``illegal``)."""
    if not res.ok:
        return []
    out: list[str] = []
    for step in res.scenario.steps:
        for _, text in step.expects:
            _, text = under(text)
            subject, _, value = text.partition(":")
            first_only = RULE_EXPECTATIONS.get(subject.strip())
            if first_only is None:
                continue
            words = split_list(value.replace(",", ";"))
            for rule in (w.split()[0] for w in (words[:1] if first_only else words) if w.split()):
                try:
                    key = parse_citation(rule).key
                except ValueError:
                    continue
                if key not in out:
                    out.append(key)
    return out


def _off(*args, **kwargs):
    return None


@contextmanager
def disabled(functions: list[EnforcingFunction]) -> Iterator[bool]:
    """Within, the functions do nothing (return None); yields whether every one of them could be disabled."""
    swapped = []
    complete = True
    for link in functions:
        fn = link.func
        if not isinstance(fn, types.FunctionType) or fn.__code__.co_freevars:
            complete = False
            continue
        swapped.append((fn, fn.__code__))
        fn.__code__ = _off.__code__
    try:
        yield complete
    finally:
        for fn, code in swapped:
            fn.__code__ = code


def decisive(res: Result, registry: Registry) -> list[str]:
    """Citation keys of the rules a passing scenario is tagged with and fails without (their functions disabled)."""
    if not res.ok:
        return []
    out = []
    for key in dict.fromkeys(res.scenario.rule_tags()):
        functions = registry.functions_for(parse_citation(key))
        if not functions:
            continue
        with disabled(functions) as complete:
            if complete and _expectations_fail(run_file(res.scenario.path, rules=res.rules or None)):
                out.append(key)
    return out


def _expectations_fail(res: Result) -> bool:
    """Did an expectation of the played scenario fail (a check, or a step expected to be legal)?  A game that
    broke down (an engine error with the function disabled) shows nothing about the rule's outcome."""
    if res.error is not None:
        return False
    return any(not passed for s in res.steps for _, _, passed, _ in s.checks) or \
        any(s.outcome.startswith("unexpected") for s in res.steps)
