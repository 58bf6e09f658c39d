"""Copy (OSC 52 + system tool) and save (atomic, never inside .context/)."""

from __future__ import annotations

import stat
import sys

import pytest
from ctxtui.tui.clipboard import clipboard_command, copy_text

from tests.ui.gallery import Gallery


def fake_tool(folder, name: str, body: str) -> None:
    folder.mkdir(exist_ok=True)
    tool = folder / name
    tool.write_text(f"#!{sys.executable}\n{body}\n", encoding="utf-8")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)


@pytest.mark.asyncio
async def test_copy_sets_app_clipboard_and_runs_the_system_tool(tmp_path):
    bin_dir, out = tmp_path / "bin", tmp_path / "copied.txt"
    fake_tool(bin_dir, "wl-copy", f"import sys; open({str(out)!r}, 'wb').write(sys.stdin.buffer.read())")
    env = {"PATH": str(bin_dir), "WAYLAND_DISPLAY": "wayland-0"}
    app = Gallery()
    async with app.run_test(size=(80, 24)):
        result = copy_text(app, "packet ✓ text", env=env, platform="linux")
        assert app.clipboard == "packet ✓ text"
        assert result.channels == ("OSC 52", "wl-copy") and result.ok
        assert result.describe() == "OSC 52 and wl-copy"
        assert out.read_text(encoding="utf-8") == "packet ✓ text"


@pytest.mark.asyncio
async def test_copy_without_a_tool_uses_osc52_only(tmp_path):
    app = Gallery()
    async with app.run_test(size=(80, 24)):
        result = copy_text(app, "x", env={"PATH": str(tmp_path)}, platform="linux")
        assert app.clipboard == "x" and result.channels == ("OSC 52",)
        assert "no system clipboard tool found" in result.describe()


@pytest.mark.asyncio
async def test_a_failing_or_hanging_tool_is_reported(tmp_path):
    bin_dir = tmp_path / "bin"
    fake_tool(bin_dir, "xclip", "import sys; sys.exit(3)")
    fake_tool(bin_dir, "pbcopy", "import time; time.sleep(5)")
    app = Gallery()
    async with app.run_test(size=(80, 24)):
        failed = copy_text(app, "x", env={"PATH": str(bin_dir), "DISPLAY": ":0"}, platform="linux")
        assert failed.tool is None and "status 3" in failed.error and failed.osc52
        slow = copy_text(app, "x", env={"PATH": str(bin_dir)}, platform="darwin", timeout=0.3)
        assert "timed out" in slow.error


def test_clipboard_command_choice(tmp_path):
    bin_dir = tmp_path / "bin"
    for name in ("wl-copy", "xclip", "xsel", "pbcopy"):
        fake_tool(bin_dir, name, "pass")
    path = str(bin_dir)
    assert clipboard_command({"PATH": path, "WAYLAND_DISPLAY": "w", "DISPLAY": ":0"}, "linux")[1:] == [
        "--type",
        "text/plain;charset=utf-8",
    ]
    assert clipboard_command({"PATH": path, "DISPLAY": ":0"}, "linux")[0].endswith("xclip")
    (bin_dir / "xclip").unlink()
    assert clipboard_command({"PATH": path, "DISPLAY": ":0"}, "linux")[0].endswith("xsel")
    assert clipboard_command({"PATH": path}, "darwin")[0].endswith("pbcopy")
    assert clipboard_command({"PATH": path}, "linux") is None
