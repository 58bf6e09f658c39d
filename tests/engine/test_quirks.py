"""Quirk diagnostics: each of the spec's ten quirks is recognised, with counts."""

from __future__ import annotations

from datetime import UTC, datetime

from ctxtui.engine.explain.quirks import find_quirks
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import write_context

NOW = datetime(2026, 3, 1, tzinfo=UTC)

FILES = {
    "CONSTITUTION.md": "# Constitution\n\n- [ ] Never push to main\n- [ ] Always run tests\n",
    "CONVENTIONS.md": "# Conventions\n\n- Use tabs\n<!--\n- commented bullet\n-->\n---\n",
    "TASKS.md": "# Tasks\n\n- [ ] top task\n  - [ ] nested task\n<!--\n- [ ] hidden task\n-->\n```\n- [ ] fenced task\n```\n",
    "DECISIONS.md": (
        "# Decisions\n\n## [2026-02-28-120000] Fresh decision\n\n**Status**: Superseded\n\n"
        "### [2026-02-27-120000] Odd header\n\nbody\n\n## [2026-02-26-120000] Old one\n\n~~Superseded~~\n"
    ),
    "LEARNINGS.md": "# Learnings\n\n"
    + "".join(f"## [2026-02-2{n}-120000] Lesson {n}\n\nlesson text {n}\n\n" for n in range(5)),
    "steering/bad.md": "no front matter here\n",
}


def test_every_quirk_is_found():
    import tempfile
    from pathlib import Path

    root = write_context(Path(tempfile.mkdtemp()), FILES)
    engine = packer_for(load_workspace(root), now=NOW, root_path="/project")
    small = {q.number: q for q in find_quirks(engine, engine.plan(60))}
    large = {q.number: q for q in find_quirks(engine, engine.plan(200000))}
    assert small[1].count == 2 and "2 rules" in small[1].detail
    assert large[2].count == 3  # the commented bullet, `--` and `->`
    assert large[3].count == 3 and "nested" in large[3].detail and "fence" in large[3].detail
    assert 4 in small and "tier 1 alone" in small[4].detail
    assert 5 in large and 6 in large
    assert large[7].count == 5
    assert large[8].count == 1 and "1 entry says" in large[8].detail
    assert 9 in large and "bad.md" in large[9].detail
    assert large[10].count == 1


def test_a_clean_workspace_has_no_quirks_beyond_absolute_paths(tmp_path):
    root = write_context(tmp_path, {"TASKS.md": "- [ ] one task that is long enough to count\n"})
    engine = packer_for(load_workspace(root), now=NOW, root_path="/project")
    assert [q.number for q in find_quirks(engine, engine.plan(8000))] == [7]
