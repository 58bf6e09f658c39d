"""App-wide messages, as dataclasses (Textual's `Message.__post_init__` supports them): what the App tells
the main screen, and what any screen asks of the App.

Down, from the App's load worker to the main screen: `LoadProgress`,
`ProjectLoaded`, `LoadFailed` (posted from the worker thread; they wait in the
screen's queue if it is not running yet). Up, from the main screen or the
preview to the App, which owns the clipboard and the file system:
`CopyPacket`, `SavePacket`. A widget's own messages stay nested in the widget
(`BudgetSlider.Changed`, `EntriesTable.Selected`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from ctxtui.engine.model import Problem
    from ctxtui.session import View

# The packet formats a screen can ask for (a `fmt`), with the names the UI gives them.
FORMAT_NAMES = {"md": "Markdown", "json": "JSON"}


@dataclass(eq=False)
class LoadProgress(Message):
    """A load reached `stage`, step `step` of `session.LOAD_STEPS`."""

    stage: str
    step: int


@dataclass(eq=False)
class ProjectLoaded(Message):
    """The session holds a new load; `problems` are what could not be read as intended.

    `budget_moved`: the load set a budget of its own (a nous turn's), so the slider follows it.
    """

    problems: list[Problem]
    budget_moved: bool = False


@dataclass(eq=False)
class LoadFailed(Message):
    """A load did not finish: `message` for the banner, or None when a notice already said why."""

    message: str | None = None


@dataclass(eq=False)
class CopyPacket(Message):
    """Put `view`'s packet on the clipboard, as Markdown (`md`) or JSON (`json`)."""

    view: View
    fmt: str = "md"


@dataclass(eq=False)
class SavePacket(Message):
    """Ask where, then write `view`'s packet to a file, as Markdown (`md`) or JSON (`json`)."""

    view: View
    fmt: str = "md"
