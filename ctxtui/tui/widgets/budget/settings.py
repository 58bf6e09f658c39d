"""The settings line: which packer builds the packet (and why that one), and where each setting came from.

"ctx agent 0.8.1 (ctx 0.8.1 on PATH) · budget 8,000 (default) · task share 0.40 (.ctxrc) · …": a user
who wonders why the packet looks as it does sees first which tool's rules apply and which of their files
or flags set the numbers. Sources are "flag" (a command-line option), "environment", ".ctxrc",
"default" (the tool's own) and "set here" (changed in this session).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.reactive import reactive

from ctxtui.engine.packers.base import Knob
from ctxtui.engine.packers.registry import PACKER_TITLES
from ctxtui.safe_text import clean_line
from ctxtui.tui.widgets.text_lines import TextLines

if TYPE_CHECKING:
    from ctxtui.session import View


def knob_value(knob: Knob) -> str:
    """A knob's value as the line shows it: shares as percentages, lists joined, empty as "none"."""
    value: Any = knob.value
    if value is None or value == "" or value == ():
        return "none"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, float) and knob.is_share:
        return f"{value:.0%}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def packer_label(view: View) -> str:
    """The packer's title and, when known, what chose it ("--packer", "ctx 0.8.0 on PATH", "set here")."""
    loaded = view.loaded
    name = loaded.packer.name
    title = PACKER_TITLES.get(name, name).split(" (")[0]
    source = loaded.choice.source if loaded.choice is not None else None
    return f"{title} ({source})" if source else title


class SettingsLine(TextLines):
    """One line: packer and source, budget and source, each knob and source; cut to the width."""

    DEFAULT_CSS = "SettingsLine { height: 1; padding: 0 1; color: $text-muted; }"

    view: reactive[View | None] = reactive(None, init=False)

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text()
        loaded = view.loaded
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("packer ", style="dim")
        text.append(clean_line(packer_label(view)), style="bold")
        text.append(f"  ·  budget {view.budget:,} tokens ({view.budget_source})")
        for knob in loaded.packer.knobs():
            text.append(f"  ·  {knob.label} {clean_line(knob_value(knob))} ({knob.source})")
        return text
