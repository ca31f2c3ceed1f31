"""`python -m masfuzz ...`: the same command line as the `masfuzz` script, for an environment
whose scripts folder is not on PATH (a venv used by its interpreter alone, a CI step)."""

from masfuzz.cli import run

if __name__ == "__main__":
    run()
