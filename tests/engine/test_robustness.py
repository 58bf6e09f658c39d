"""Bad input never crashes the engine: a clear problem, and the rest of the packet still built."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.sources.context import ContextMissing
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import write_context

NOW = datetime(2026, 3, 1, tzinfo=UTC)
GOOD_DECISIONS = "# Decisions\n\n## [2026-02-28-120000] Use SQLite\n\nBecause it is embedded.\n"
GOOD_TASKS = "# Tasks\n\n- [ ] Ship the parser\n- [ ] Write the docs\n"


def _pack(root, budget=4000):
    workspace = load_workspace(root)
    packer = packer_for(workspace, now=NOW, root_path="/p")
    plan = packer.plan(budget)
    plan.render("json")
    return workspace, packer.packet(plan), plan.render("md")


def test_invalid_utf8_is_reported_and_kept(tmp_path):
    root = write_context(
        tmp_path, {"TASKS.md": b"# Tasks\n\n- [ ] caf\xe9 \xff\xfe task\n", "DECISIONS.md": GOOD_DECISIONS}
    )
    workspace, packet, markdown = _pack(root)
    assert any("not valid UTF-8" in str(p) and p.line == 3 for p in workspace.problems)
    assert packet.decisions and len(packet.tasks) == 1
    assert markdown.encode("utf-8", "surrogateescape").count(b"caf\xe9 \xff\xfe task") == 1
    assert "\\ufffd" in packer_for(workspace, now=NOW, root_path="/p").plan(4000).render("json")


def test_binary_file_named_md(tmp_path):
    root = write_context(tmp_path, {"LEARNINGS.md": bytes(range(256)) * 40, "TASKS.md": GOOD_TASKS})
    workspace, packet, _ = _pack(root)
    assert any("binary" in str(p) for p in workspace.problems)
    assert len(packet.tasks) == 2


def test_huge_learnings_file(tmp_path):
    entry = "## [2026-02-01-120000] Lesson {n}\n\n" + "word " * 200 + "\n\n"
    chunk = "".join(entry.format(n=n) for n in range(100))
    text = "# Learnings\n\n" + chunk * (50 * 1024 * 1024 // len(chunk) + 1)
    assert len(text) >= 50 * 1024 * 1024
    root = write_context(tmp_path, {"LEARNINGS.md": text, "TASKS.md": GOOD_TASKS, "DECISIONS.md": GOOD_DECISIONS})
    workspace, packet, _ = _pack(root, budget=2000)
    assert packet.tasks and packet.decisions and packet.learnings


def test_file_over_the_size_limit_is_skipped_with_a_message(tmp_path, monkeypatch):
    monkeypatch.setattr("ctxtui.engine.sources.files.MAX_FILE_BYTES", 1000)
    root = write_context(tmp_path, {"LEARNINGS.md": "x" * 2000, "TASKS.md": GOOD_TASKS})
    workspace, packet, _ = _pack(root)
    assert any("over the" in str(p) and "LEARNINGS.md" in str(p) for p in workspace.problems)
    assert packet.tasks


def test_empty_files(tmp_path):
    root = write_context(
        tmp_path,
        {name: "" for name in ("TASKS.md", "DECISIONS.md", "LEARNINGS.md", "CONVENTIONS.md", "CONSTITUTION.md")},
    )
    _, packet, markdown = _pack(root)
    assert packet.read_order == [] and packet.constitution == []
    assert markdown.startswith("# Context Packet\n")


def test_symlinked_file_is_skipped_like_ctx(tmp_path):
    root = write_context(tmp_path, {"TASKS.md": GOOD_TASKS})
    (tmp_path / "elsewhere.md").write_text(GOOD_DECISIONS)
    os.symlink(tmp_path / "elsewhere.md", root / ".context" / "DECISIONS.md")
    workspace, packet, _ = _pack(root)
    assert any("symbolic link" in str(p) for p in workspace.problems)
    assert packet.tasks and not packet.decisions


def test_dangling_symlink(tmp_path):
    root = write_context(tmp_path, {"TASKS.md": GOOD_TASKS})
    os.symlink(tmp_path / "gone.md", root / ".context" / "LEARNINGS.md")
    _, packet, _ = _pack(root)
    assert packet.tasks


def test_file_vanishing_while_read(tmp_path, monkeypatch):
    root = write_context(tmp_path, {"TASKS.md": GOOD_TASKS, "DECISIONS.md": GOOD_DECISIONS})
    real_lstat = os.lstat

    def vanish(path, *args, **kwargs):
        if str(path).endswith("DECISIONS.md"):
            raise FileNotFoundError(path)
        return real_lstat(path, *args, **kwargs)

    monkeypatch.setattr("ctxtui.engine.sources.context.os.lstat", vanish)
    workspace, packet, _ = _pack(root)
    assert any("vanished" in str(p) for p in workspace.problems)
    assert packet.tasks and not packet.decisions


def test_ten_thousand_line_task_list(tmp_path):
    tasks = "# Tasks\n\n" + "".join(f"- [ ] task number {n} about parsing\n" for n in range(10_000))
    root = write_context(tmp_path, {"TASKS.md": tasks, "DECISIONS.md": GOOD_DECISIONS})
    workspace, packet, _ = _pack(root, budget=8000)
    assert len(workspace.parsed.tasks) == 10_000
    assert 0 < len(packet.tasks) < 10_000 and packet.decisions


def test_unreadable_file(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode")
    root = write_context(tmp_path, {"TASKS.md": GOOD_TASKS, "DECISIONS.md": GOOD_DECISIONS})
    (root / ".context" / "DECISIONS.md").chmod(0)
    workspace, packet, _ = _pack(root)
    assert any("cannot read" in str(p) for p in workspace.problems) and packet.tasks


def test_malformed_steering_disables_all_steering_with_a_message(tmp_path):
    root = write_context(
        tmp_path,
        {
            "TASKS.md": GOOD_TASKS,
            "steering/a.md": "---\nname: a\ninclusion: always\n---\nBody A\n",
            "steering/b.md": "---\nname: [unclosed\n---\nBody B\n",
        },
    )
    workspace, packet, _ = _pack(root)
    assert packet.steering == []
    assert any("b.md" in str(p) and "no steering at all" in str(p) for p in workspace.problems)
    outcomes = packer_for(workspace, now=NOW, root_path="/p").plan(4000).outcomes
    assert {o.reason.value for o in outcomes if o.entry.section == "steering"} == {"steering-disabled"}


def test_missing_context_directory(tmp_path):
    with pytest.raises(ContextMissing, match="no .context/ directory"):
        load_workspace(tmp_path)


def test_context_is_a_file(tmp_path):
    (tmp_path / ".context").write_text("oops")
    with pytest.raises(ContextMissing, match="not a directory"):
        load_workspace(tmp_path)


def test_malformed_markdown_does_not_crash(tmp_path):
    junk = "## [2026-13-45-999999] Bad date\n\n### [2026-02-01-120000] Mid\ntext ## [2026-02-02-120000] inline\n- [ ]\n- [x\n"
    root = write_context(
        tmp_path, {"DECISIONS.md": junk, "TASKS.md": "- [ ]\nswallowed line\n- [ ]", "CONVENTIONS.md": "---\n-->\n"}
    )
    _, packet, _ = _pack(root)
    assert "- [ ] swallowed line" in packet.tasks
    assert packet.conventions == ["--", "->"]
