"""No write lands in a source, by any path: a linked folder, a context folder not named `.context`, steering,
`.ctxrc`, a memory store (issue 20, critical 1 and 2).

The first guard followed a link only in the last path component and knew one
folder name: `ln -s .context notes` then `-o notes/TASKS.md` replaced the
user's tasks, and ctx 0.8.0's `--context-dir mydocs` (or `CTX_DIR`, `.ctxrc
context_dir`), 0.8.1's `.ctxrc steering.dir`, `.ctxrc` itself and `--db` were
not protected at all.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import NOW, write_context

TASKS = "# Tasks\n\n- [ ] Keep me\n"
STEERING = "---\nname: style\ninclusion: always\n---\n\nWrite short functions.\n"


@pytest.fixture
def project(tmp_path):
    return write_context(tmp_path / "proj", {"TASKS.md": TASKS, "DECISIONS.md": "# Decisions\n"})


def pack(project, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--now", NOW.isoformat(), *args],
        capture_output=True,
        text=True,
        cwd=project,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def listing(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# -- critical 1: a linked folder ----------------------------------------------------------------


def test_a_linked_folder_into_context_is_refused_for_an_existing_file(project):
    (project / "notes").symlink_to(".context")
    before = listing(project / ".context")
    result = pack(project, "-o", "notes/TASKS.md")
    assert result.returncode == 2, result.stderr
    assert ".context" in result.stderr and "Traceback" not in result.stderr
    assert listing(project / ".context") == before


def test_a_linked_folder_into_context_is_refused_for_a_new_file(project):
    (project / "notes").symlink_to(".context")
    before = listing(project / ".context")
    result = pack(project, "-o", "notes/NEW.md")
    assert result.returncode == 2, result.stderr
    assert listing(project / ".context") == before


def test_a_link_deeper_in_the_path_is_resolved(project, tmp_path):
    (project / ".context" / "sub").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "hop").symlink_to(project / ".context" / "sub")
    result = pack(project, "-o", str(tmp_path / "elsewhere" / "hop" / ".." / "TASKS.md"))
    assert result.returncode == 2, result.stderr
    assert (project / ".context" / "TASKS.md").read_text() == TASKS


def test_a_plain_output_beside_the_project_still_works(project):
    result = pack(project, "-o", "packet.md")
    assert result.returncode == 0, result.stderr
    assert (project / "packet.md").read_text().startswith("# Context Packet")


@pytest.mark.asyncio
async def test_tui_save_refuses_a_linked_folder_into_context(project):
    from textual.widgets import Input, Label

    from tests.app.helpers import make_app, settle

    (project / "notes").symlink_to(project / ".context")
    before = listing(project / ".context")
    app = make_app(project, real_tokens=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await pilot.pause()
        app.screen.query_one(Input).value = str(project / "notes" / "NEW.md")
        await pilot.press("enter")
        await settle(pilot)
        message = str(app.screen.query_one("#save-message", Label).render())
        assert "Not saved" in message and ".context" in message, message
    assert listing(project / ".context") == before


# -- critical 2: every source the packer reads, whatever its name -----------------------------------


@pytest.fixture
def mydocs(tmp_path):
    root = tmp_path / "p080"
    write_context(root, {"TASKS.md": "# Tasks\n\n- [ ] default\n"})
    (root / "mydocs").mkdir()
    (root / "mydocs" / "TASKS.md").write_text(TASKS)
    return root


@pytest.mark.parametrize(
    "how",
    ["--context-dir", "CTX_DIR", ".ctxrc"],
)
@pytest.mark.parametrize("name", ["TASKS.md", "NEW.md"])
def test_ctx_080_context_dir_by_any_name_is_protected(mydocs, how, name):
    args = ["--packer", "ctx-0.8.0"]
    env = {}
    if how == "--context-dir":
        args += ["--context-dir", "mydocs"]
    elif how == "CTX_DIR":
        env["CTX_DIR"] = "mydocs"
    else:
        (mydocs / ".ctxrc").write_text("context_dir: mydocs\n")
    before = listing(mydocs / "mydocs")
    result = pack(mydocs, *args, "-o", f"mydocs/{name}", env=env)
    assert result.returncode == 2, result.stderr
    assert "mydocs" in result.stderr and "Traceback" not in result.stderr
    assert listing(mydocs / "mydocs") == before


def test_steering_dir_from_ctxrc_is_protected(project):
    (project / ".ctxrc").write_text("steering:\n  dir: docs/steering\n")
    (project / "docs" / "steering").mkdir(parents=True)
    (project / "docs" / "steering" / "style.md").write_text(STEERING)
    before = listing(project / "docs" / "steering")
    for target in ("docs/steering/style.md", "docs/steering/new.md"):
        result = pack(project, "-o", target)
        assert result.returncode == 2, result.stderr
        assert "steering" in result.stderr
    assert listing(project / "docs" / "steering") == before


def test_ctxrc_itself_is_protected_from_pack_o(project):
    for content in (None, "token_budget: 3000\n"):
        if content is not None:
            (project / ".ctxrc").write_text(content)
        result = pack(project, "-o", ".ctxrc")
        assert result.returncode == 2, result.stderr
        assert ".ctxrc" in result.stderr
        assert (project / ".ctxrc").exists() == (content is not None)
        if content is not None:
            assert (project / ".ctxrc").read_text() == content


def test_a_memory_store_and_its_sidecars_are_protected(project, tmp_path):
    from ctxtui.engine.sources.memory.native import schema

    db = tmp_path / "store.db"
    schema.init_db(db)
    before = db.read_bytes()
    for target in (str(db), f"{db}-wal", f"{db}-journal"):
        result = pack(project, "--db", str(db), "-o", target)
        assert result.returncode == 2, (target, result.stderr)
        assert "store.db" in result.stderr
    assert db.read_bytes() == before
    assert not os.path.exists(f"{db}-wal") and not os.path.exists(f"{db}-journal")


@pytest.mark.asyncio
async def test_tui_save_refuses_the_steering_dir_and_ctxrc(project):
    from textual.widgets import Input, Label

    from tests.app.helpers import make_app, settle

    (project / ".ctxrc").write_text("steering:\n  dir: docs/steering\n")
    (project / "docs" / "steering").mkdir(parents=True)
    app = make_app(project, real_tokens=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        for target in (project / "docs" / "steering" / "new.md", project / ".ctxrc"):
            await pilot.press("w")
            await pilot.pause()
            app.screen.query_one(Input).value = str(target)
            await pilot.press("enter")
            await settle(pilot)
            message = str(app.screen.query_one("#save-message", Label).render())
            assert "Not saved" in message, (target, message)
            await pilot.press("escape")
            await settle(pilot)
    assert list((project / "docs" / "steering").iterdir()) == []
    assert (project / ".ctxrc").read_text() == "steering:\n  dir: docs/steering\n"
