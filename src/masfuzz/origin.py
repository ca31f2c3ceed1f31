"""Whose code a source file is: masfuzz's, installed (the interpreter's library or a package), or
the app's own. Three judgements rest on it, and must agree: an exception escaping an adapter is
masfuzz's fault or the app's crash (`masfuzz.target`), code coverage measures the app's files
only (`masfuzz.exec.codecov`), and a tool's failure is the tool's or masfuzz's calling code's
(`masfuzz.toolfuzz.grouping`).
"""

from __future__ import annotations

import functools
import os
import sys
import sysconfig
from typing import Literal

Origin = Literal["masfuzz", "installed", "app", "synthetic"]

MASFUZZ_ROOT = os.path.dirname(os.path.abspath(__file__))  # the masfuzz package's folder
# A package installed for another interpreter (a tool served by CrewAI's own virtualenv) has
# paths this process's prefixes do not cover; its folder's name still says what it is.
_PACKAGE_DIRS = (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}")


@functools.lru_cache(maxsize=1)
def installed_roots() -> tuple[str, ...]:
    """The folders of this interpreter's standard library and installed packages (a virtualenv's
    prefix among them, so a script at a project's top with its virtualenv below it is the app's
    while what the virtualenv holds is not)."""
    return tuple(sorted({os.path.abspath(p) for p in (sys.prefix, sys.base_prefix,
                                                      *sysconfig.get_paths().values()) if p}))


@functools.lru_cache(maxsize=4096)  # asked per traceback frame, for every failed tool call
def origin(filename: str) -> Origin:
    """masfuzz's own, installed, the app's, or not a source file at all ("<string>", a frame
    of code built at run time)."""
    if filename.startswith("<"):
        return "synthetic"
    path = os.path.abspath(filename)
    if path == MASFUZZ_ROOT or path.startswith(MASFUZZ_ROOT + os.sep):
        return "masfuzz"
    if any(d in path for d in _PACKAGE_DIRS) or any(
            path.startswith(root + os.sep) for root in installed_roots()):
        return "installed"
    return "app"
