"""Pack preview (Markdown and JSON, byte for byte), copy to the clipboard, save to a file."""

from __future__ import annotations

import pytest
from ctxtui.tui.screens.preview import PreviewScreen
from ctxtui.tui.screens.save import SaveScreen
from textual.widgets import TabbedContent, TextArea

from tests.app.helpers import SIZE, make_app, notices, settle, small_workspace, snapshot_ready
from tests.conftest import corpus_path, needs_corpus


@needs_corpus
@pytest.mark.asyncio
async def test_preview_shows_exactly_the_rendered_packet():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PreviewScreen)
        markdown = screen.query_one("#text-md", TextArea)
        assert markdown.text == app.main.view.plan.render("md")
        assert markdown.read_only
        assert screen.current_format == "md"
        title = screen.query_one("#preview-title")
        assert "budget 4,000" in str(title.content)
        assert title.region.y == 0 and screen.scroll_offset.y == 0  # visible: the screen does not overflow
        assert screen.query_one("#text-md").region.bottom == SIZE[1] - 1  # the text fills down to the footer

        await pilot.press("j")
        await pilot.pause()
        assert screen.query_one(TabbedContent).active == "tab-json" and screen.current_format == "json"
        assert screen.query_one("#text-json", TextArea).text == app.main.view.plan.render("json")
        await pilot.press("m")
        await pilot.pause()
        assert screen.current_format == "md"

        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PreviewScreen)


@needs_corpus
@pytest.mark.asyncio
async def test_preview_follows_the_budget_it_was_opened_at():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("right_curly_bracket")  # 5,000
        await settle(pilot)
        await pilot.press("p")
        await pilot.pause()
        text = app.screen.query_one("#text-md", TextArea).text
        assert text == app.session.packer.plan(5000).render("md")
        assert text != app.session.packer.plan(4000).render("md")


@needs_corpus
@pytest.mark.asyncio
async def test_copy_from_the_preview_puts_the_visible_format_on_the_clipboard():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000)
    async with app.run_test(size=SIZE) as pilot:
        await snapshot_ready(pilot)  # the o200k count is in, so the notice quotes it
        tokens = app.main.view.plan.tokens_used
        real = app.main.view.real_tokens
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == app.main.view.plan.render("md")
        copied = [n for n in notices(app) if n.startswith("Copied the Markdown packet")]
        assert copied and f"~{tokens:,} tokens" in copied[-1] and f"{real:,} o200k_base" in copied[-1]
        assert "OSC 52" in copied[-1]

        await pilot.press("j", "c")
        await pilot.pause()
        assert app.clipboard == app.main.view.plan.render("json")
        assert any(n.startswith("Copied the JSON packet") and f"~{tokens:,} tokens" in n for n in notices(app))


@needs_corpus
@pytest.mark.asyncio
async def test_c_on_the_main_screen_copies_markdown():
    app = make_app(corpus_path("ctx-dogfood"), budget=2000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == app.main.view.plan.render("md")
        assert any(f"~{app.main.view.plan.tokens_used:,} tokens" in n for n in notices(app))
        await pilot.press("C")
        await pilot.pause()
        assert app.clipboard == app.main.view.plan.render("json")


@pytest.mark.asyncio
async def test_copy_also_feeds_a_system_clipboard_tool(tmp_path, monkeypatch):
    import sys

    out = tmp_path / "clipboard.txt"
    tool = [sys.executable, "-c", f"import sys; open({str(out)!r}, 'wb').write(sys.stdin.buffer.read())"]
    monkeypatch.setattr("ctxtui.tui.clipboard.clipboard_command", lambda *a, **k: tool)
    app = make_app(small_workspace(tmp_path / "proj"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        assert out.read_text(encoding="utf-8") == app.clipboard == app.main.view.plan.render("md")
        assert any("via OSC 52 and python" in n for n in notices(app))


def save_message(app) -> str:
    """What the save dialog says under the path ("" when it says nothing)."""
    from textual.widgets import Label

    message = app.screen.query_one("#save-message", Label)
    return str(message.render()) if message.display else ""


async def type_path(pilot, path: str) -> None:
    """Answer the save prompt. Paths are typed relative to the working folder: each key costs ~0.1 s."""
    await pilot.pause()
    assert isinstance(pilot.app.screen, SaveScreen)
    await pilot.press(*path, "enter")  # the suggested path is selected: typing replaces it
    await settle(pilot)
    assert not isinstance(pilot.app.screen, SaveScreen)


@pytest.mark.asyncio
async def test_w_saves_markdown_where_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(small_workspace(tmp_path / "proj"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        (tmp_path / "out").mkdir()
        await pilot.press("w")
        await type_path(pilot, "out/p.md")
        target = tmp_path / "out" / "p.md"
        assert target.read_text(encoding="utf-8") == app.main.view.plan.render("md")
        assert any(n.startswith("Saved out/p.md — ") for n in notices(app))

        await pilot.press("w")  # Enter takes the suggestion: context-packet-<budget>.md here
        await pilot.pause()
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert (tmp_path / "context-packet-4000.md").read_text(encoding="utf-8") == app.main.view.plan.render("md")

        await pilot.press("w", "escape")  # Esc: nothing written
        await settle(pilot)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["context-packet-4000.md", "out", "proj"]


@pytest.mark.asyncio
async def test_save_from_the_json_preview_and_refusal_inside_context(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project = small_workspace(tmp_path / "proj")
    before = sorted(p.name for p in (project / ".context").iterdir())
    app = make_app(project, budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("p", "j", "s")
        await type_path(pilot, "p.json")
        assert isinstance(app.screen, PreviewScreen)  # back to the preview
        assert (tmp_path / "p.json").read_text(encoding="utf-8") == app.main.view.plan.render("json")

        await pilot.press("s")
        await pilot.pause()
        await pilot.press(*"proj/.context/P.json", "enter")
        await settle(pilot)
        assert sorted(p.name for p in (project / ".context").iterdir()) == before
        assert isinstance(app.screen, SaveScreen)  # the dialog stays, with the path to fix
        assert "Not saved: proj/.context/P.json: is inside a .context/ folder" in save_message(app)

        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, PreviewScreen)


@needs_corpus
@pytest.mark.asyncio
async def test_an_open_preview_follows_budget_keys_and_copies_what_it_shows():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        await pilot.press("right_curly_bracket")  # an App key: works under the preview
        await settle(pilot)
        assert app.screen is screen and app.main.view.budget == 5000
        shown = screen.query_one("#text-md", TextArea).text
        assert shown == app.session.packer.plan(5000).render("md")
        assert screen.query_one("#text-json", TextArea).text == app.main.view.plan.render("json")
        assert "budget 5,000" in str(screen.query_one("#preview-title").content)
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == shown


@pytest.mark.asyncio
async def test_saving_over_a_file_asks_first_and_errors_are_words_with_the_dialog_open(tmp_path, monkeypatch):
    from textual.widgets import Input

    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.md").write_text("keep me\n", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    app = make_app(small_workspace(tmp_path / "proj"), budget=4000, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await pilot.pause()
        dialog = app.screen
        field = dialog.query_one(Input)

        async def submit(path: str) -> None:
            field.value = path
            await pilot.press("enter")
            await settle(pilot)

        await submit("old.md")  # an existing file: asked first, nothing written yet
        assert app.screen is dialog and "old.md already exists: Enter again replaces it" in save_message(app)
        assert (tmp_path / "old.md").read_text(encoding="utf-8") == "keep me\n"

        for path, words in (
            ("folder", "is a directory"),
            ("folder/", "is a directory"),
            ("missing/p.md", "the folder"),
        ):
            await submit(path)
            said = save_message(app)
            assert app.screen is dialog and field.value == path, path  # the path stays, to fix
            assert said.startswith(f"Not saved: {path}: ") and words in said, said
        assert "does not exist" in said

        def no_permission(*args, **kwargs):
            raise PermissionError(13, "Permission denied", str(tmp_path / ".p.md.x8f2k.tmp"))

        monkeypatch.setattr("ctxtui.safe_write.create_temporary", no_permission)
        await submit("p.md")
        said = save_message(app)
        assert said == "Not saved: p.md: permission denied"  # no errno, no temporary file name
        monkeypatch.undo()
        monkeypatch.chdir(tmp_path)

        await submit("old.md")
        assert app.screen is dialog and "already exists" in save_message(app)
        await pilot.press("enter")  # the same path again: replaced
        await settle(pilot)
        assert not isinstance(app.screen, SaveScreen)
        assert (tmp_path / "old.md").read_text(encoding="utf-8") == app.main.view.plan.render("md")
        assert not (tmp_path / "p.md").exists() and not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


@pytest.mark.asyncio
async def test_a_saved_packet_is_stamped_with_the_time_of_saving_and_pack_reproduces_it(tmp_path, monkeypatch, capsys):
    import shlex
    from datetime import timedelta
    from pathlib import Path

    from ctxtui.cli import main
    from ctxtui.session import Session
    from ctxtui.tui.app import CtxtuiApp

    from tests.conftest import NOW

    monkeypatch.chdir(tmp_path)
    times = [NOW]
    session = Session(project=small_workspace(tmp_path / "proj"), clock=lambda: times[-1])
    app = CtxtuiApp(session, budget=4000, theme_name="ctxtui-dark", watch=False, real_tokens=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await pilot.pause()
        shown = app.main.view.plan.render("md")
        assert "Generated: 2026-11-21T23:56:08Z" in shown
        reproduce = str(app.screen.query_one("#preview-reproduce").content)
        command = reproduce[reproduce.index("ctxtui pack") :].split(" prints")[0]
        assert "--now 2026-11-21T23:56:08+00:00" in command

        times.append(NOW + timedelta(hours=2, minutes=3, seconds=4, microseconds=500))  # time passes
        await pilot.press("s")
        await type_path(pilot, "saved.md")
        saved = (tmp_path / "saved.md").read_text(encoding="utf-8")
        assert "Generated: 2026-11-22T01:59:12Z" in saved  # the time of saving, not of loading
        assert saved == shown.replace("2026-11-21T23:56:08Z", "2026-11-22T01:59:12Z")
        said = next(n for n in notices(app) if n.startswith("Saved saved.md"))
        again = said[said.index("ctxtui pack") :].split(" prints")[0]
        assert "--now 2026-11-22T01:59:12+00:00" in again

    for line, expected in ((command, shown), (again, saved)):
        assert main(shlex.split(line)[1:]) == 0
        assert capsys.readouterr().out == expected  # `ctxtui pack` with that --now prints the same bytes
    assert Path(shlex.split(command)[2]).absolute() == tmp_path / "proj"  # relative to the working directory
