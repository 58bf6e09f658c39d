"""Two loads of a workspace edited in between, compared as the app compares them (by key).

The issue's case: one HTML comment line at the top of four files of ctx-large
changed 1,062 keys, so the pin and the step marks said 452 entries moved
when none had. Now no key changes, only locations; a grown decision is
*edited*, a task checked off is gone, a new one is new.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from ctxtui.comparison import EDITED, Pin, pin_comparison, step_comparison
from ctxtui.engine.explain.diff import diff_plans, step_summary
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import NOW, corpus_path, needs_corpus

FILES = ("TASKS.md", "DECISIONS.md", "LEARNINGS.md", "CONVENTIONS.md")


def _copy(tmp_path):
    project = tmp_path / "large"
    shutil.copytree(corpus_path("ctx-large") / ".context", project / ".context")
    return project


def _packer(project):
    return packer_for(load_workspace(project), now=NOW, root_path="/project")


def _prepend(path, line):
    path.write_text(line + "\n" + path.read_text(encoding="utf-8"), encoding="utf-8")


@needs_corpus
def test_a_comment_on_top_of_four_files_moves_no_entry(tmp_path):
    project = _copy(tmp_path)
    before = _packer(project)
    for name in FILES:
        _prepend(project / ".context" / name, "<!-- reviewed -->")
    after = _packer(project)
    old, new = before.candidates(), after.candidates()
    assert [e.key for e in old] == [e.key for e in new]
    in_files = [e for e in old if e.location.split(":")[0].rsplit("/", 1)[-1] in FILES]
    moved = [a for a, b in zip(old, new, strict=True) if a.location != b.location]
    assert len(in_files) > 500 and moved == in_files  # each sits a line lower: its location says so, not its key
    diff = diff_plans(before.plan(4000), after.plan(4000))
    assert diff.changed == [] and diff.edited == [] and step_summary(diff) == ""
    pinned = pin_comparison(Pin(before, 4000, "the pin"), after.plan(4000))
    assert pinned.marks == {} and pinned.summary == "same fates as the pin"


@needs_corpus
def test_a_decision_body_grown_is_edited_and_a_checked_task_gone(tmp_path):
    project = _copy(tmp_path)
    before = _packer(project)
    plan = before.plan(4000)
    decision = next(o.entry for o in plan.outcomes if o.entry.section == "decisions")
    task = next(o.entry for o in plan.outcomes if o.entry.section == "tasks")
    decisions = project / ".context" / "DECISIONS.md"
    text = decisions.read_text(encoding="utf-8")
    decisions.write_text(text.replace(decision.text, decision.text + "\n\nOne more reason.", 1), encoding="utf-8")
    tasks = project / ".context" / "TASKS.md"
    task_line = task.location.rsplit(":", 1)[1]
    lines = tasks.read_text(encoding="utf-8").split("\n")
    lines[int(task_line) - 1] = lines[int(task_line) - 1].replace("[ ]", "[x]", 1)
    tasks.write_text("\n".join(lines), encoding="utf-8")

    after = _packer(project)
    step = step_comparison(plan, after.plan(4000))
    assert [e.key for e in step.diff.edited] == [decision.key]
    assert step.marks.get(decision.key) in (EDITED, "▲", "▼")
    gone = [c for c in step.diff.changed if c.after is None]
    assert [c.entry.key for c in gone] == [task.key]
    assert "1 edited" in step.summary and "1 gone" in step.summary


@needs_corpus
@pytest.mark.parametrize("command", [["explain", "--all"], ["coverage"]])
def test_json_outputs_carry_location_beside_key(command):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ctxtui.cli",
            *command,
            str(corpus_path("ctx-large")),
            "--budget",
            "4000",
            "--format",
            "json",
            "--ignore-refusal",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    data = json.loads(out)
    found = [item for item in _dicts(data) if "key" in item]
    assert found and all(list(item)[list(item).index("key") + 1] == "location" for item in found)
    assert all(":" in item["location"] for item in found)


def _dicts(value):
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _dicts(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _dicts(inner)
