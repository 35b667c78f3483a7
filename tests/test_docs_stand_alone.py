"""The repository stands alone: every document the code points to is in it, and the architecture page's layout is whole.

Comments used to point to a protocol fact sheet that only existed outside the repository; the protocol facts the
code relies on now live under ``docs/``, and a pointer to a missing file (or to the old sheet) fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "README.md", *sorted((ROOT / "src").rglob("*.py")), *sorted((ROOT / "tests").rglob("*.py"))]
SOURCES += sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "docs").rglob("*.md"))
DOC_PATH = re.compile(r"\bdocs/[\w./-]*\.md\b")
OLD_SHEET = "PROTOCOLS" + ".md"  # spelt in two parts so this file does not name it


def test_every_docs_path_named_in_the_repository_exists() -> None:
    missing = [
        f"{source.relative_to(ROOT)}: {path}"
        for source in SOURCES
        for path in DOC_PATH.findall(source.read_text(encoding="utf-8"))
        if not (ROOT / path).is_file()
    ]
    assert missing == []


def test_nothing_points_to_the_protocol_sheet_outside_the_repository() -> None:
    stale = [str(s.relative_to(ROOT)) for s in SOURCES if OLD_SHEET in s.read_text(encoding="utf-8")]
    assert stale == []


def test_the_architecture_page_lists_every_package() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = page[page.index("## Layout") :].split("```")[1]
    packages = sorted(p.name for p in (ROOT / "src" / "hexarena").iterdir() if p.is_dir() and p.name != "__pycache__")
    assert [p for p in packages if f"src/hexarena/{p} " not in layout] == []
