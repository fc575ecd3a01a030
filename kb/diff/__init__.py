"""What changed between two editions of the rules, rule by rule: built on the alignment rows.

Three layers, all pure functions over rows (no database access below :func:`compare`):

1. :func:`classify` (:mod:`.classes`) turns the aligned pairs of two editions into *change
   classes*: every rule of either edition is exactly one of :data:`CLASSES`.
2. :func:`word_diff` (:mod:`.words`) compares two texts word by word and folds pure
   terminology, spelling, case, inflection and symbol-notation shifts (:mod:`.tokens`), so the
   real changes of meaning stand out.
3. :func:`terminology_table` (:mod:`.terminology`) counts, for the whole edition pair, each
   old → new term of the curated table ``data/terminology.tsv``.

:func:`compare` (:mod:`.load`) loads two editions and their alignment rows from the KB and runs
all three; :mod:`.model` holds the records they share.  :mod:`.table` is the ``diffs`` table:
the build stage :func:`store` that writes it and the Datasette pieces :func:`metadata`,
:func:`canned_queries` and :func:`render_cell`.  :mod:`.report` renders a report as text, HTML
or JSON, :mod:`.cli` is ``kb diff`` and :mod:`.bench` its benchmark (``python -m
kb.diff.bench``).  Rule texts never appear in this code.

The names below are imported on first use (module ``__getattr__``): every ``kb`` command imports
:mod:`.cli` to register ``kb diff``, and that must not load the whole package.  No exported name
is also the name of a submodule (``classify`` lives in :mod:`.classes`, ``store`` in
:mod:`.table`): an imported submodule would shadow it.
"""
from importlib import import_module

CLASSES = ("unchanged", "reworded", "renumbered", "moved", "split", "merged", "added", "removed", "outside")
#: the HTML report links rules to ``<BASE_URL>/rule/<edition>/<number>``: by default relative to the site root,
#: so the same links work on any host and port (``kb diff --base-url http://host:port`` for a file kept elsewhere)
BASE_URL = ""

_EXPORTS = {
    "classes": ("classify", "refine_pairs", "renumbering_map"),
    "load": ("build_report", "compare"),
    "model": ("Classification", "EditionInfo", "Group", "Pair", "Report", "Rule", "Seg", "make_rule"),
    "table": ("canned_queries", "metadata", "render_cell", "sanitize", "store"),
    "terminology": ("Term", "load_terms", "terminology_table"),
    "tokens": ("join_tokens", "tokenize"),
    "words": ("changed", "diff_stats", "group_diff", "inline_html", "sentences", "side_html", "word_diff"),
}
_MODULE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = ["BASE_URL", "CLASSES", *sorted(name for name in _MODULE if not name.startswith("_"))]


def __getattr__(name: str):
    if name not in _MODULE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = getattr(import_module(f".{_MODULE[name]}", __name__), name)
    return globals()[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MODULE))
