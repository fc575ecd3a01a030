"""The knowledge base: build, rule graph, alignment, diffs and serving (see README.md)."""
import sys

if "sqlite_utils" not in sys.modules and "numpy" not in sys.modules:
    # sqlite-utils imports numpy when it is installed (spaCy brings it) only to store numpy values, which the KB
    # never passes it: hidden while sqlite-utils loads, that import no longer costs every `kb` process about a
    # tenth of a CPU second.  numpy imports as usual afterwards (spaCy's tokenizer, if it is ever loaded).
    sys.modules["numpy"] = None  # type: ignore[assignment]
    try:
        import sqlite_utils  # noqa: F401
    finally:
        del sys.modules["numpy"]
