"""The documents stay true to the tree: every link between them leads to a file, and every path
the README's layout and DESIGN.md's map name exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_link_leads_to_a_file(document):
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", document.read_text())
    local = [link for link in links if "://" not in link and not link.startswith("mailto:")]

    missing = [link for link in local if not (document.parent / link).exists()]

    assert not missing


PATH_LIKE = re.compile(r"Makefile|[\w.]+/(?:[\w.]+)?|[\w-]+\.\w+")


def maps(text: str) -> list[list[str]]:
    """The lines of the plain code blocks (a fence with no language): the documents' maps."""
    blocks: list[list[str]] = []
    fence: str | None = None  # the opening fence of the block the line is in
    for line in text.splitlines():
        if line.startswith("```"):
            if fence is None:
                fence = line
                blocks.append([])
            else:
                if fence != "```":
                    blocks.pop()  # a block of commands, not a map
                fence = None
        elif fence is not None:
            blocks[-1].append(line)
    return blocks


def map_paths(document: Path) -> set[str]:
    """The paths a map names (each entry at the start of a line; on a line of only paths, all of
    them) and the paths from the root in backticks."""
    text = document.read_text()
    paths = set()
    for block in maps(text):
        for line in block:
            if not line or line[0].isspace():
                continue  # the description of the entry above
            words = [column.split(" ")[0] for column in re.split(r"\s{2,}", line.strip())]
            only_paths = len(words) > 2 and all(PATH_LIKE.fullmatch(w) for w in words)
            entries = words if only_paths else words[:1]
            paths |= {word for word in entries if PATH_LIKE.fullmatch(word)}
    paths |= set(re.findall(r"`((?:[\w.]+/)+[\w.]*)`", text))
    return paths


@pytest.mark.parametrize("document", ["README.md", "docs/DESIGN.md"])
def test_every_path_of_the_map_exists(document):
    paths = map_paths(ROOT / document)
    assert len(paths) >= 10

    missing = sorted(path for path in paths if not (ROOT / path).exists())

    assert not missing
