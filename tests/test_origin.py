"""Whose code a file is decides three verdicts (an adapter's exception, code coverage's files, a
tool failure's owner): one answer for all of them."""

import json
import os

import masfuzz.target
from masfuzz.origin import origin


def test_masfuzz_installed_app_and_synthetic_files_are_told_apart(tmp_path):
    assert origin(masfuzz.target.__file__) == "masfuzz"
    assert origin(json.__file__) == "installed"  # the standard library
    assert origin(str(tmp_path / "app.py")) == "app"
    assert origin("<string>") == "synthetic"
    # a package installed for another interpreter (a tool served by another virtualenv)
    other = os.path.join(str(tmp_path), "venv", "lib", "python3.12", "site-packages", "crewai", "tool.py")
    assert origin(other) == "installed"
    # a folder merely named like masfuzz's is not masfuzz's
    assert origin(os.path.dirname(masfuzz.target.__file__) + "_old" + os.sep + "x.py") == "app"
