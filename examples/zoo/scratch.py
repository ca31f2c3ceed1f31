"""Running a snippet an agent wrote, the way the zoo's code-running tools do: a fresh Python in
isolated mode (`-I`: no user site, no environment variables read), in a temporary folder removed
afterwards, with a time limit. Each tool shapes the finished process into its own answer."""

from __future__ import annotations

import subprocess
import sys
import tempfile


def run_snippet(code: str, prefix: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        return subprocess.run([sys.executable, "-I", "-c", code], cwd=folder, capture_output=True,
                              text=True, timeout=30)
