"""The errors the stages of a build raise (a module of its own, so that the stages need not import kb.build)."""
from __future__ import annotations


class BuildError(Exception):
    """Bad input or a failed stage: the build stops with this message (file:line where there is one)."""
