"""An entry followed through git (`y`), as text: for the why panel's History section and its dialog."""

from __future__ import annotations

from rich.text import Text

from ctxtui.engine.explain.history_reasons import move_words
from ctxtui.opening.history_log import EntryHistory
from ctxtui.safe_text import clean_line


def moves_text(found: EntryHistory, *, wrap: int = 70) -> Text:
    """The commits at which the entry's fate changed, newest first, each with its cause and reasons."""
    text = Text()
    if found.error is not None:
        text.append(clean_line(found.error) + "\n")
        return text
    commits = "the newest commit" if found.looked_at == 1 else f"the {found.looked_at:,} newest commits"
    text.append(f"its fate through {commits} that touched .context/ (each at its own date)\n\n")
    if not found.moves:
        text.append("Its fate did not change in them.\n")
    for move in found.moves:
        commit = move.commit
        text.append(f"{commit.commit[:10]} {commit.date[:10]}  ", style="bold")
        text.append(f"{move_words(move.change.before, move.change.after)} ({move.change.cause})\n")
        text.append(f"    {clean_line(commit.subject)[:wrap]}\n", style="italic")
        for reason in move.reasons:
            text.append(f"    · {clean_line(reason)}\n")
        text.append("\n")
    if not found.complete:
        text.append("Stopped at the time bound: older commits were not looked at.\n", style="italic")
    return text
