"""Saving `.ctxrc` (`tune --write`, ctrl+s): a linked file, foreign backups, read-only files, a folder, an edit made
meanwhile (issue 20, critical 3, high 9, low 18).

Dotfile managers link `.ctxrc` into a dotfiles folder: the save used to write
its backup beside the link's target (`victim.yaml.bak`, replacing whatever was
there) while saying "the previous one is .ctxrc.bak". A read-only `.ctxrc`
was replaced without a word; a folder gave `[Errno 21]`; and ctrl+s wrote the
text planned when its dialog opened over an edit made since.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from tests.conftest import ROOT, write_context

OLD = "# my settings\ntoken_budget: 4000  # keep this comment\nunknown_key: keep me\n"


@pytest.fixture
def project(tmp_path):
    return write_context(tmp_path / "proj", {"TASKS.md": "# Tasks\n\n- [ ] One\n"})


def tune(project, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "tune", str(project), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def listing(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file() and not p.is_symlink()}


@pytest.fixture
def linked(project, tmp_path):
    """`.ctxrc` is a link into a dotfiles folder, which already holds a `victim.yaml.bak` of its own."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "victim.yaml").write_text(OLD)
    (dotfiles / "victim.yaml.bak").write_text("precious: not ctxtui's\n")
    (project / ".ctxrc").symlink_to(dotfiles / "victim.yaml")
    return dotfiles


def test_tune_write_through_a_linked_ctxrc_keeps_the_link_and_says_where(project, linked):
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 0, result.stderr
    link = project / ".ctxrc"
    assert link.is_symlink() and os.readlink(link) == str(linked / "victim.yaml")
    assert (linked / "victim.yaml").read_text() == OLD.replace("4000", "6000")
    assert (linked / "victim.yaml.bak").read_text() == "precious: not ctxtui's\n"
    assert sorted(p.name for p in linked.iterdir()) == ["victim.yaml", "victim.yaml.bak"]
    # The message names the file written (the link's target) and the backup, exactly.
    assert str(linked / "victim.yaml") in result.stdout and str(link) in result.stdout
    backup = project / ".ctxrc.bak"
    assert str(backup) in result.stdout
    assert OLD in backup.read_text() and not backup.is_symlink()


def test_tune_preview_says_where_it_would_write(project, linked):
    result = tune(project, "--set", "token_budget=6000")
    assert result.returncode == 0, result.stderr
    assert str(linked / "victim.yaml") in result.stdout and str(project / ".ctxrc.bak") in result.stdout
    assert (linked / "victim.yaml").read_text() == OLD


def test_a_backup_ctxtui_did_not_write_is_never_replaced(project):
    (project / ".ctxrc").write_text(OLD)
    (project / ".ctxrc.bak").write_text("my own notes, not a ctxtui backup\n")
    for budget in ("5000", "6000"):
        result = tune(project, "--set", f"token_budget={budget}", "--write")
        assert result.returncode == 0, result.stderr
        assert (project / ".ctxrc.bak").read_text() == "my own notes, not a ctxtui backup\n"
    used = [p for p in project.iterdir() if p.name.startswith(".ctxrc.bak") and p.name != ".ctxrc.bak"]
    assert len(used) == 1, used  # the second save reused ctxtui's own backup
    assert "token_budget: 5000" in used[0].read_text()
    assert str(used[0]) in result.stdout and "not ctxtui's" in result.stdout


def test_a_linked_backup_is_never_followed(project, tmp_path):
    (project / ".ctxrc").write_text(OLD)
    victim = tmp_path / "victim.txt"
    victim.write_text("do not touch\n")
    (project / ".ctxrc.bak").symlink_to(victim)
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == "do not touch\n" and (project / ".ctxrc.bak").is_symlink()


def test_a_ctxrc_linked_into_context_is_refused(project):
    tasks = project / ".context" / "GLOSSARY.md"
    tasks.write_text("token_budget: 4000\n")  # a context file that also reads as settings
    before = tasks.read_text()
    (project / ".ctxrc").symlink_to(tasks)
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 2, result.stdout
    assert ".context" in result.stderr
    assert tasks.read_text() == before


def test_a_hard_linked_ctxrc_is_not_split_from_its_other_name(project, tmp_path):
    shared = tmp_path / "shared-ctxrc"
    shared.write_text(OLD)
    os.link(shared, project / ".ctxrc")
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 2 and "hard links" in result.stderr, result.stdout
    assert shared.read_text() == OLD and os.stat(shared).st_nlink == 2


def test_a_read_only_ctxrc_is_not_replaced(project):
    ctxrc = project / ".ctxrc"
    ctxrc.write_text(OLD)
    ctxrc.chmod(0o444)
    before = os.stat(ctxrc)
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 2, result.stdout
    assert "read-only" in result.stderr and "Errno" not in result.stderr
    after = os.stat(ctxrc)
    assert ctxrc.read_text() == OLD and after.st_ino == before.st_ino
    assert stat.S_IMODE(after.st_mode) == 0o444
    assert not (project / ".ctxrc.bak").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_save_as_root_keeps_the_owner(project):
    ctxrc = project / ".ctxrc"
    ctxrc.write_text(OLD)
    ctxrc.chmod(0o640)
    os.chown(ctxrc, 4321, 4321)
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 0, result.stderr
    info = os.stat(ctxrc)
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 4321, 0o640)
    assert "6000" in ctxrc.read_text()


def test_a_ctxrc_that_is_a_folder_gets_a_clear_message(project):
    (project / ".ctxrc").mkdir()
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 2
    assert "directory" in result.stderr and "Errno" not in result.stderr and "Traceback" not in result.stderr
    assert (project / ".ctxrc").is_dir()


@pytest.mark.asyncio
async def test_ctrl_s_through_a_linked_ctxrc_keeps_the_link_and_says_where(project, linked):
    from ctxtui.tui.screens.ctxrc import ConfirmWriteScreen

    from tests.app.helpers import make_app, notices, settle

    app = make_app(project, budget=3000, real_tokens=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.main.action_save_ctxrc()
        await settle(pilot)
        assert isinstance(app.screen, ConfirmWriteScreen)
        question = str(app.screen.query_one("#confirm-question").render())
        assert str(linked / "victim.yaml") in question.replace("\n", "")
        await pilot.press("y")
        await settle(pilot)
        said = " ".join(notices(app))
    assert (project / ".ctxrc").is_symlink()
    assert "token_budget: 3000" in (linked / "victim.yaml").read_text()
    assert (linked / "victim.yaml.bak").read_text() == "precious: not ctxtui's\n"
    assert str(linked / "victim.yaml") in said and str(project / ".ctxrc.bak") in said


@pytest.mark.asyncio
async def test_ctrl_s_never_writes_over_an_edit_made_while_it_asked(project):
    from ctxtui.tui.screens.ctxrc import ConfirmWriteScreen

    from tests.app.helpers import make_app, settle

    ctxrc = project / ".ctxrc"
    ctxrc.write_text(OLD)
    app = make_app(project, budget=3000, real_tokens=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.main.action_save_ctxrc()
        await settle(pilot)
        assert isinstance(app.screen, ConfirmWriteScreen)
        edited = OLD + "tool: claude  # added in an editor meanwhile\n"
        ctxrc.write_text(edited)
        await pilot.press("y")
        await settle(pilot)
        # Not written: the dialog now shows the change against the file as it is.
        assert ctxrc.read_text() == edited
        assert isinstance(app.screen, ConfirmWriteScreen)
        shown = str(app.screen.query_one("#confirm-diff").render())
        assert "added in an editor meanwhile" in shown
        assert "changed" in str(app.screen.query_one("#confirm-question").render())
        await pilot.press("y")
        await settle(pilot)
    assert ctxrc.read_text() == edited.replace("token_budget: 4000", "token_budget: 3000")


@pytest.mark.asyncio
async def test_ctrl_s_refuses_a_read_only_ctxrc_in_words(project):
    from tests.app.helpers import make_app, notices, settle

    ctxrc = project / ".ctxrc"
    ctxrc.write_text(OLD)
    ctxrc.chmod(0o444)
    app = make_app(project, budget=3000, real_tokens=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.main.action_save_ctxrc()
        await settle(pilot)
        if app.screen is not app.main:  # asked first: "y" must still not replace it
            await pilot.press("y")
            await settle(pilot)
        assert any("read-only" in n for n in notices(app)), notices(app)
    assert ctxrc.read_text() == OLD and stat.S_IMODE(os.stat(ctxrc).st_mode) == 0o444


def test_a_ctxrc_linked_into_a_context_folder_by_another_name_is_refused(project):
    (project / "mydocs").mkdir()
    tasks = project / "mydocs" / "TASKS.md"
    tasks.write_text("context_dir: mydocs\ntoken_budget: 4000\n")  # reads as settings too
    (project / ".ctxrc").symlink_to(tasks)
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 2 and "mydocs" in result.stderr, result.stdout
    assert tasks.read_text() == "context_dir: mydocs\ntoken_budget: 4000\n"


def test_settings_in_a_project_that_is_its_own_context_folder_are_still_saved(project):
    # ctx 0.8.0 with `context_dir: .` reads PROJECT/*.md: .ctxrc and its backup are not among them.
    (project / ".ctxrc").write_text("context_dir: .\ntoken_budget: 4000\n")
    result = tune(project, "--set", "token_budget=6000", "--write")
    assert result.returncode == 0, result.stderr
    assert (project / ".ctxrc").read_text() == "context_dir: .\ntoken_budget: 6000\n"
    assert (project / ".ctxrc.bak").is_file()
