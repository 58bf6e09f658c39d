"""Command-palette commands for every action, beside Textual's system commands."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from ctxtui.ui.rows import COLUMN_IDS

BUDGET_PRESETS = (1000, 2000, 4000, 8000, 16000, 32000)


def _commands(app) -> list[tuple[str, object, str]]:
    """(name, callback, help) for every action the app offers."""
    run = app.run_action
    commands = [
        ("Preview packet as Markdown", partial(run, "preview('md')"), "show exactly what `ctxtui pack` prints"),
        ("Preview packet as JSON", partial(run, "preview('json')"), "show the --format json packet"),
        ("Copy packet (Markdown)", partial(run, "copy('md')"), "to the clipboard (OSC 52 + system tool)"),
        ("Copy packet (JSON)", partial(run, "copy('json')"), "to the clipboard (OSC 52 + system tool)"),
        ("Save packet (Markdown)…", partial(run, "save('md')"), "write the packet to a file"),
        ("Save packet (JSON)…", partial(run, "save('json')"), "write the JSON packet to a file"),
        ("Type a budget…", partial(run, "type_budget"), "set an exact budget"),
        ("Filter entries by text…", partial(run, "filter_text"), "title, section, reason or file"),
        ("Cycle fate filter", partial(run, "cycle_fate"), "included → summarized → dropped → all"),
        ("Cycle section filter", partial(run, "cycle_section"), "tasks, conventions, decisions…"),
        ("Clear filters", partial(run, "clear_filters"), "show every entry"),
        ("Show ctx quirks at work", partial(run, "quirks"), "which of ctx's surprises shape this packet"),
        ("Reload from disk", partial(run, "reload"), "re-read .context/ and the memory database"),
        ("Help: keys", partial(run, "help"), "every key binding"),
        ("Quit", partial(run, "quit"), "leave ctxtui"),
    ]
    commands += [(f"Sort by {column}", partial(run, f"sort('{column}')"), "press again to reverse")
                 for column in COLUMN_IDS]
    commands += [(f"Budget {budget:,}", partial(run, f"set_budget({budget})"), "jump to this budget")
                 for budget in BUDGET_PRESETS]
    return commands


class CtxtuiCommands(Provider):
    """ctxtui's own actions in the command palette."""

    async def discover(self) -> Hits:
        for name, callback, help_text in _commands(self.app):
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in _commands(self.app):
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
