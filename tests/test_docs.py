"""The documentation site (mkdocs.yml over docs/) builds with every link and anchor resolving,
its generated commands reference is the one the option table gives, and nothing in the
repository points at a page that is not there."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from masfuzz.cli.reference import render

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_site_builds_strict(site):
    """--strict: a page missing from the nav, a link to no page, an anchor no heading makes."""
    assert (site / "commands" / "index.html").is_file()


def test_the_readme_links_into_the_site(site):
    """README.md is outside the site: its links to docs/ pages and their anchors are checked
    against the built pages."""
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(docs/([\w-]+)\.md(?:#([\w-]+))?\)", readme)
    assert links
    for page, anchor in links:
        built = site / ("" if page == "index" else page) / "index.html"
        assert built.is_file(), f"README links docs/{page}.md, which is not in the site"
        if anchor:
            assert f'id="{anchor}"' in built.read_text(), f"docs/{page}.md has no #{anchor}"


def test_the_commands_reference_is_the_option_tables():
    page = ROOT / "docs" / "commands.md"
    assert page.read_text() == render(), (
        "docs/commands.md is stale: run python -m masfuzz.cli.reference docs/commands.md")


def test_the_reference_documents_every_option_of_every_command():
    from masfuzz.options import TABLE

    text = render()
    for setting in TABLE:
        assert f"`{setting.flag}" in text and f"`{setting.env}`" in text, setting.name


def test_the_store_page_names_every_table():
    created = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)",
                             (ROOT / "src/masfuzz/store/db.py").read_text()))
    listed = set(re.findall(r"^\| `(\w+)` \|", (ROOT / "docs/store.md").read_text(), re.M))
    assert created == listed


def test_no_file_cites_a_page_the_repository_lacks():
    """A design document named anywhere in the repository's text, and a page named as
    docs/<page>.md in masfuzz's own code, tests and build files, exists. (Pages about other
    projects and the examples copied from them name those projects' pages, not checked.)"""
    def text_files(*folders):
        return [p for folder in folders for p in (ROOT / folder).rglob("*")
                if p.suffix in {".py", ".md", ".yaml", ".toml"} and p != Path(__file__)]

    own = text_files("src", "tests") + [ROOT / name for name in (
        "README.md", "Makefile", "pyproject.toml", "mkdocs.yml")]
    cited = [(path, name) for path in text_files("src", "tests", "docs", "examples", "bench") + own
             for name in re.findall(r"[\w/-]*DESIGN\.md", path.read_text(errors="replace"))]
    cited += [(path, name) for path in own
              for name in re.findall(r"(?<![\w/.-])docs/[\w-]+\.md", path.read_text(errors="replace"))]
    missing = sorted({f"{path.relative_to(ROOT)}: {name}" for path, name in cited
                      if not (ROOT / name).is_file()})
    assert not missing, missing


def test_no_file_holds_a_merge_conflicts_markers():
    """A merge resolved in haste leaves git's markers in a page or a module; a page still builds
    and a test may still pass with them, so they are looked for."""
    marker = re.compile(r"^(?:<{7}|>{7}) ", re.MULTILINE)
    found = [str(p.relative_to(ROOT)) for folder in ("src", "docs", "tests", "examples", "bench")
             for p in (ROOT / folder).rglob("*") if p.suffix in {".py", ".md", ".yaml", ".yml", ".toml", ".json"}
             and p.is_file() and marker.search(p.read_text(errors="replace"))]
    found += [n for n in ("README.md", "pyproject.toml", "Makefile") if marker.search((ROOT / n).read_text())]
    assert not found, found
