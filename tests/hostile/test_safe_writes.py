"""No write ever destroys a user file: `.context/` (directly, through links), devices, FIFOs, symlinks.

`ctxtui pack -o .context/TASKS.md` used to overwrite the user's tasks, through a
symlink or a hard link too, and the TUI's save turned `/dev/full` into a
regular file. Every product write goes through `ctxtui.safe_write`.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from ctxtui.safe_write import WriteRefused, check_target, write_atomically

from tests.conftest import NOW, ROOT, write_context

TASKS = "# Tasks\n\n- [ ] Keep me\n"


@pytest.fixture
def project(tmp_path):
    return write_context(tmp_path / "proj", {"TASKS.md": TASKS, "DECISIONS.md": "# Decisions\n"})


def pack(project, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--now", NOW.isoformat(), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def assert_untouched(project) -> None:
    assert (project / ".context" / "TASKS.md").read_text() == TASKS


def test_pack_o_refuses_a_context_file_given_directly(project):
    result = pack(project, "-o", str(project / ".context" / "TASKS.md"))
    assert result.returncode == 2
    assert "inside a .context/ folder" in result.stderr
    assert_untouched(project)


def test_pack_o_refuses_a_symlink_into_context(project, tmp_path):
    link = tmp_path / "innocent.md"
    link.symlink_to(project / ".context" / "TASKS.md")
    result = pack(project, "-o", str(link))
    assert result.returncode == 2 and ".context/" in result.stderr
    assert_untouched(project)
    assert link.is_symlink()


def test_pack_o_refuses_a_hard_link_to_a_context_file(project, tmp_path):
    twin = tmp_path / "twin.md"
    os.link(project / ".context" / "TASKS.md", twin)
    result = pack(project, "-o", str(twin))
    assert result.returncode == 2 and "hard link" in result.stderr
    assert_untouched(project)


def test_pack_o_empty_is_an_error(project):
    result = pack(project, "-o", "")
    assert result.returncode == 2 and "no file name given" in result.stderr


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: os.mkfifo(p), "FIFO"),
        (lambda p: p.mkdir(), "is a directory"),
    ],
)
def test_pack_o_refuses_non_regular_files(project, tmp_path, make, words):
    target = tmp_path / "target"
    make(target)
    result = pack(project, "-o", str(target))
    assert result.returncode == 2 and words in result.stderr, result.stderr
    assert not target.is_file()


def test_a_device_is_never_replaced():
    before = os.stat("/dev/null")
    with pytest.raises(WriteRefused, match="is a device"):
        write_atomically("/dev/null", b"x")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_a_symlink_to_a_regular_file_is_followed_and_kept(tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert write_atomically(link, b"new") == real
    assert link.is_symlink() and real.read_text() == "new"


def test_messages_are_words_without_errno_or_temporary_names(tmp_path):
    with pytest.raises(WriteRefused) as missing:
        write_atomically(tmp_path / "nope" / "packet.md", b"x")
    assert "does not exist" in str(missing.value)
    assert "Errno" not in str(missing.value) and ".tmp" not in str(missing.value)
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "gone.md")
    with pytest.raises(WriteRefused, match="does not exist"):
        check_target(dangling)


def test_atomic_write_keeps_the_mode_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "packet.md"
    write_atomically(target, b"one")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    target.chmod(0o600)
    write_atomically(target, b"two")
    assert target.read_bytes() == b"two" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["packet.md"]


def test_a_file_edited_since_it_was_read_is_not_replaced(tmp_path):
    from ctxtui.safe_write import TargetChanged

    target = tmp_path / ".ctxrc"
    target.write_text("token_budget: 4000\n")
    with pytest.raises(TargetChanged):
        write_atomically(target, b"token_budget: 6000\n", expect=b"token_budget: 3000\n")
    assert target.read_text() == "token_budget: 4000\n"
    write_atomically(target, b"token_budget: 6000\n", expect=b"token_budget: 4000\n")
    assert target.read_text() == "token_budget: 6000\n"
    with pytest.raises(TargetChanged):  # b"": it did not exist when read
        write_atomically(target, b"x", expect=b"")


def test_pack_o_refuses_a_read_only_file(project, tmp_path):
    target = tmp_path / "packet.md"
    target.write_text("mine")
    target.chmod(0o444)
    result = pack(project, "-o", str(target))
    assert result.returncode == 2 and "read-only" in result.stderr, result.stderr
    assert target.read_text() == "mine"


def test_memory_database_may_live_in_context_but_not_as_another_file(project, tmp_path):
    assert check_target(project / ".context" / "memory.db", database=True)
    with pytest.raises(WriteRefused):
        check_target(project / ".context" / "TASKS.md", database=True)
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    result = subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "memory", "init", "--db", str(fifo)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
    )
    assert result.returncode == 2 and "FIFO" in result.stderr


@pytest.mark.asyncio
async def test_tui_save_never_replaces_a_fifo(project, tmp_path):
    from textual.widgets import Input

    from tests.app.helpers import make_app, notices, settle

    fifo = tmp_path / "packet.md"
    os.mkfifo(fifo)
    app = make_app(project, real_tokens=False)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await pilot.pause()
        app.screen.query_one(Input).value = str(fifo)
        await pilot.press("enter")
        await settle(pilot)
        from textual.widgets import Label

        # The save dialog refuses it in words under the path and stays open to fix it.
        message = str(app.screen.query_one("#save-message", Label).render())
        assert "FIFO" in message or any("FIFO" in n for n in notices(app)), (message, notices(app))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
