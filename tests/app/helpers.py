"""Building a deterministic CtxtuiApp and reading what it shows."""

from __future__ import annotations

from pathlib import Path

from ctxtui.session import Session
from ctxtui.tui.app import CtxtuiApp
from ctxtui.tui.widgets.budget.status import StatusLine
from ctxtui.tui.widgets.entries.table import EntriesTable
from ctxtui.tui.widgets.why.panel import WhyPanel
from rich.text import Text
from textual.geometry import Region
from textual.widgets import Static

from tests.conftest import NOW, write_context

SIZE = (160, 45)

TASKS = "# Tasks\n\n- [ ] Ship the parser #added:2026-11-01-091500\n- [ ] Write the docs #added:2026-11-02-091500\n"
CONSTITUTION = "# Constitution\n\n- [ ] Never commit secrets\n"


def decision(stamp: str, title: str, body: str = "Because it is embedded and needs no server.") -> str:
    return (
        f"\n## [{stamp}] {title}\n\n**Status**: Accepted\n\n**Context**: {body}\n\n"
        f"**Decision**: {title}.\n\n**Rationale**: {body}\n\n**Consequence**: none worth noting.\n"
    )


def learning(stamp: str, title: str, body: str = "It bit us twice in production.") -> str:
    return (
        f"\n## [{stamp}] {title}\n\n**Context**: {body}\n\n**Lesson**: {body}\n\n**Application**: check it in review.\n"
    )


DECISIONS = "# Decisions\n" + "".join(
    [
        decision("2026-11-20-120000", "Use SQLite for the memory store"),
        decision("2026-11-10-120000", "Budgets are per tier, not global"),
        decision("2026-10-01-120000", "Keep the parser in one module"),
    ]
)
LEARNINGS = "# Learnings\n" + "".join(
    [
        learning("2026-11-19-120000", "Flaky test: retry the socket bind"),
        learning("2026-09-01-120000", "The watcher misses renames on NFS"),
    ]
)


def small_workspace(root: Path, **overrides: str | bytes | None) -> Path:
    """A small `.context/` in `root`; `overrides` replace files (None leaves one out)."""
    files = {"TASKS.md": TASKS, "CONSTITUTION.md": CONSTITUTION, "DECISIONS.md": DECISIONS, "LEARNINGS.md": LEARNINGS}
    files.update({name.replace("__", "/"): text for name, text in overrides.items()})
    return write_context(root, {name: text for name, text in files.items() if text is not None})


def make_app(
    project: Path,
    budget: int | None = 4000,
    theme: str | None = "ctxtui-dark",
    *,
    watch: bool = False,
    real_tokens: bool = True,
    **kwargs,
) -> CtxtuiApp:
    session = Session(project=Path(project), clock=lambda: NOW, root_path="/project")
    return CtxtuiApp(session, budget=budget, theme_name=theme, watch=watch, real_tokens=real_tokens, **kwargs)


def busy_workers(app: CtxtuiApp) -> list:
    """Running workers except the file watchers, which run until the app quits."""
    return [w for w in app.workers if w.group != "watch" and not w.is_finished]


async def settle(pilot, rounds: int = 20) -> None:
    """Wait for load, thresholds, o200k count and recomputes, and for the screen to catch up."""
    app = pilot.app
    await pilot.pause()
    for _ in range(rounds):
        busy = busy_workers(app)
        if busy:
            await app.workers.wait_for_complete(busy)
        await pilot.pause()
        if not busy_workers(app) and not app.main.budget_pending:
            break
    await pilot.pause()


async def snapshot_ready(pilot) -> None:
    """`run_before` for snapshots: loaded, thresholds and real-token count shown, nothing moving."""
    await settle(pilot)
    app = pilot.app
    if app.main.real_tokens:
        for _ in range(100):
            if app.main.view is not None and app.main.view.real_tokens is not None:
                break
            await pilot.pause(0.02)
            await settle(pilot)
    await settle(pilot)


def plain(widget: Static) -> str:
    content = widget.content
    return content.plain if isinstance(content, Text) else str(content)


def status_text(app: CtxtuiApp) -> str:
    return app.query_one(StatusLine).render().plain


def why_text(app: CtxtuiApp) -> str:
    return plain(app.query_one(WhyPanel).query_one("#why-body", Static))


def rendered_lines(widget) -> list[str]:
    """What the widget draws on screen, line by line (after styles, markup and all)."""
    region = Region(0, 0, widget.size.width, widget.size.height)
    return [strip.text for strip in widget.render_lines(region)]


def table(app: CtxtuiApp) -> EntriesTable:
    return app.query_one(EntriesTable)


def fates(app: CtxtuiApp) -> dict[str, str]:
    """Entry key → fate value, for the packet on screen."""
    assert app.main.view is not None
    return {o.entry.key: o.fate.value for o in app.main.view.plan.outcomes}


def notices(app: CtxtuiApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def cursor_to(pilot, position: int) -> None:
    """Move the focused table's cursor to view row `position`, ending with a real ↓ or ↑ key press.

    The long way runs the table's own cursor actions (what PgDn/↓ run): a
    Pilot key press costs ~0.1 s, too slow for hundreds of rows.
    """
    entries = table(pilot.app)
    assert pilot.app.focused is entries
    last = "down" if position > 0 else "up"
    entries.action_cursor(position - entries.cursor_row + (-1 if last == "down" else 1))
    await pilot.press(last)
    await pilot.pause()
    assert entries.cursor_row == position


class CapturedRun:
    """Patch `CtxtuiApp.run` so `ctxtui.cli.main` builds the app and hands it over instead of running it."""

    def __init__(self, monkeypatch) -> None:
        self.apps: list[CtxtuiApp] = []

        def run(app, *args, **kwargs):
            self.apps.append(app)

        monkeypatch.setattr(CtxtuiApp, "run", run)

    @property
    def app(self) -> CtxtuiApp:
        assert len(self.apps) == 1, self.apps
        app = self.apps[0]
        app._watch = False  # the CLI watches files; tests do not need to
        return app


def assert_why_laid_out(app: CtxtuiApp) -> None:
    """The why panel's text got its full height (not the height of an earlier, shorter text)."""
    body = app.query_one(WhyPanel).query_one("#why-body", Static)
    lines = why_text(app).count("\n") + 1
    assert body.size.height >= lines, f"why panel {body.size.height} rows high for {lines} lines of text"
