"""Align rules across languages and editions; give aligned rule versions one concept id.

Two aligners, both pure functions from lists of :class:`AlignRule` to lists of :class:`Alignment`:

* :func:`align_cross_language` (``crosslang.py``) — same numbering scheme, different languages
  (Italian wiki ↔ German 2024, English ↔ German Morph excerpt).  Numbers are evidence, not
  proof: a banded, monotone dynamic program scores pairs by evidence that survives
  translation, then competitive linking finds swaps, duplicates (merges), misprints and splits.
* :func:`align_cross_edition` (``crossedition.py``) — same language, different numbering
  (German 1999 → 2024).  Candidates come from an inverted index (blocking); similarity is
  TF-IDF over lemmas after the terminology rewrite; every sentence of an old rule votes for the
  new rule that keeps its wording (natural 1→n splits); near-duplicate new rules (twins) join.

:func:`align_items` (``items.py``) links article steps and examples and FAQ bullets to rules;
:func:`store` (``store.py``) runs every alignment of the KB and writes ``concepts``,
``alignments`` and ``rules.concept_id``.  Rule texts never appear in this code: every word
list comes from the documents or from ``data/``.

Modules: ``views`` (views, links, DB adapters), ``numbering`` (numbers as evidence),
``features`` (translation-surviving evidence, lexicon, sentences), ``lexical`` (terminology
rewrite, TF-IDF index with numpy postings, lemma bags), ``tokens`` (the KB's lemmas per sentence,
the terminology rewrite word by word), ``crosslang``, ``matcher`` (rule and sentence similarity of
two editions in one language), ``structure`` (section priors, gaps, headings), ``crossedition``,
``items``, ``concepts``, ``store``.
"""
from __future__ import annotations

from .concepts import assign_concepts
from .consecutive import align_consecutive, identical_share
from .crossedition import XEDITION, align_cross_edition
from .crosslang import NUMBER_WEIGHT, XLANG_WEIGHTS, PairScorer, align_cross_language
from .features import Feat, Lexicon, features, merge_feats, sentences, stop_words
from .items import align_items
from .lexical import TERMINOLOGY, LexicalIndex, Vectoriser, load_terminology, rewrite
from .matcher import EditionMatcher
from .numbering import number_affinity
from .pairs import EditionSpec, PlannedPair, plan
from .store import CANNED_QUERIES, TABLE_METADATA, edition_specs, planned_pairs, run_all, store
from .views import RELATIONS, Alignment, AlignRule, items_from_db, make_view, views_from_db

__all__ = [
    "CANNED_QUERIES", "NUMBER_WEIGHT", "RELATIONS", "EditionSpec", "PlannedPair", "align_consecutive",
    "edition_specs", "identical_share", "plan", "planned_pairs", "TABLE_METADATA", "TERMINOLOGY", "XEDITION",
    "XLANG_WEIGHTS", "EditionMatcher", "Feat", "Lexicon", "LexicalIndex", "Alignment", "PairScorer", "AlignRule",
    "Vectoriser", "align_cross_edition", "align_cross_language", "align_items", "assign_concepts", "features",
    "items_from_db", "load_terminology", "make_view", "merge_feats", "number_affinity", "rewrite", "run_all",
    "sentences", "stop_words", "store", "views_from_db",
]
