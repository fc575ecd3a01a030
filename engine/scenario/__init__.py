"""Scenarios: small line-based files that set up a game, take actions and state expectations.

The format is documented in the README, section "Scenario files".  Parsing and running
never raise on bad input: every problem becomes a :class:`ScenarioError`
naming the file and line.

==========  ==================================================================================
``model``   the scenario as data (Scenario, Step, Option) and what playing it gave (Result)
``reader``  text -> Scenario: header, setup, steps and their options, expectations
``names``   players, labels and card names -> objects and targets; the "did you mean" hint
``steps``   options -> the player's Choices, verbs -> game actions (tables of handlers)
``expect``  expectations, by subject (tables of handlers)
``run``     the Runner: set up, play each step under a Tracer, check; run_file, all_files
==========  ==================================================================================
"""
from ..paths import SCENARIOS_DIR
from .model import SUFFIX, Option, Result, Scenario, ScenarioError, Step, StepResult, split_list
from .names import did_you_mean
from .reader import load, parse
from .run import Runner, all_files, run_file

__all__ = ["SCENARIOS_DIR", "SUFFIX", "Option", "Result", "Runner", "Scenario", "ScenarioError", "Step", "StepResult",
           "all_files", "did_you_mean", "load", "parse", "run_file", "split_list"]
