"""Pausing Python's cyclic garbage collector while a phase makes many long-lived objects and few cycles."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection meanwhile (what cycles there are, it collects after the phase).

    A build makes millions of objects that outlive the collector's young generations (records, rows, views,
    links) and hardly any garbage cycles: the collections their number sets off would walk them again and
    again, for nothing.  Processes forked meanwhile start with the collector paused too."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
