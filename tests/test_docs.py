"""The repository's documents link only to files that exist: README.md and docs/*.md point at
each other and at screenshots, and a file moved without its links updated would leave a reader
at a dead end."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A Markdown link or image: [text](target) or ![text](target), the target up to a space or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _local_targets(document: Path) -> list[str]:
    text = document.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # code blocks hold no links
    return [
        target.split("#", 1)[0]
        for target in LINK.findall(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")
    ]


def test_the_documents_are_found():
    names = {d.name for d in DOCUMENTS}
    assert {"README.md", "architecture.md", "interchange.md", "performance.md"} <= names
    # The README links its screenshot and the docs: the pattern finds them.
    assert len(_local_targets(ROOT / "README.md")) >= 3


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_every_local_link_resolves(document):
    missing = [t for t in _local_targets(document) if not (document.parent / t).exists()]
    assert missing == []


def test_a_dead_link_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "[here](here.md) and ![shot](img/shot.png), [web](https://example.org), [top](#top)\n"
        "```\n[not a link](gone.md)\n```\n",
        encoding="utf-8",
    )
    (tmp_path / "here.md").write_text("", encoding="utf-8")
    targets = _local_targets(page)
    assert targets == ["here.md", "img/shot.png"]
    assert [t for t in targets if not (tmp_path / t).exists()] == ["img/shot.png"]
