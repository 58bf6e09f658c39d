"""Shared fixtures: where the real corpora live, and small workspaces built in code."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.pg import nous_db, pg_cluster  # noqa: F401 - the throwaway PostgreSQL, for tests that ask for it

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CTXTUI_CORPUS", ROOT.parent / "shared" / "corpus"))
CORPORA = ("ctx-dogfood", "ctx-init", "ctx-large")
NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _default_packer(monkeypatch):
    """Tests pick ctx 0.8.1 unless they say otherwise: the `ctx` on this machine's PATH must not matter."""
    monkeypatch.setenv("CTXTUI_PACKER", "ctx-0.8.1")
    # Small test workspaces have no .git and often no CONSTITUTION.md: build their packets anyway
    # (ctx would refuse them; tests/packers/test_refusals.py checks that it does).
    monkeypatch.setenv("CTXTUI_IGNORE_REFUSAL", "1")


needs_corpus = pytest.mark.skipif(
    not (CORPUS / "ctx-large" / ".context").is_dir(),
    reason=f"the shared corpora are not at {CORPUS} (set CTXTUI_CORPUS to their folder)",
)


def corpus_path(name: str) -> Path:
    return CORPUS / name


def generated_time(text: str) -> datetime:
    """The "now" an expected file was produced at (its Generated line or field)."""
    found = re.search(r'(?:Generated: |"generated": ")([0-9TZ:-]+)', text)
    return datetime.strptime(found.group(1), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def write_context(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `.context/<name>` files (str or bytes) under root; returns root."""
    context = root / ".context"
    context.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = context / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root
