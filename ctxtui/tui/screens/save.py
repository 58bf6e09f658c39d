"""Where to save the packet: a path prompt that checks first, asks before replacing, and says what went wrong.

The dialog stays open until the packet is written: a path it cannot write
(a directory, a folder that does not exist, inside `.context/` or any
other source, no permission...) is said in words under the path, which stays there to fix.
An existing file is replaced only after a second Enter on the same path. The
writing itself is the App's (`write`, in a worker): it answers with
`saved()` or `failed()`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from ctxtui.safe_write import WriteRefused, check_target
from ctxtui.tui.actions import PROMPT, bindings


class SaveScreen(ModalScreen[Path | None]):
    """Asks for a path; `write(path)` is called once the path is writable (and replacing was confirmed)."""

    BINDINGS = bindings(PROMPT)
    DEFAULT_CSS = """
    SaveScreen { align: center top; }
    SaveScreen > Vertical { width: 76; max-width: 100%; height: auto; margin-top: 3; padding: 1 2;
                            border: round $primary; background: $panel; }
    SaveScreen Label { width: 100%; }
    SaveScreen #save-message { display: none; }
    SaveScreen #save-message.shown { display: block; }
    SaveScreen #save-message.-error { color: $text-error; }
    SaveScreen #save-message.-ask { color: $text-warning; }
    SaveScreen .hint { color: $text-muted; }
    """

    def __init__(
        self,
        default_path: str,
        write: Callable[[str], None],
        *,
        sources: Iterable[str | os.PathLike[str]] = (),
        what: str = "the packet",
    ) -> None:
        super().__init__()
        self._default = default_path
        self._write = write
        self._sources = list(sources)  # every path a packer reads: never written
        self._what = what
        self._confirmed: str | None = None  # the path whose replacement the user confirmed
        self._busy = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Save {self._what} to (never inside .context/)", markup=False)
            yield Input(self._default, placeholder="path")
            yield Label("", id="save-message", markup=False)
            yield Label("Enter saves · Esc cancels", classes="hint")

    def _say(self, text: str, kind: str) -> None:
        message = self.query_one("#save-message", Label)
        message.update(text)
        message.set_classes(f"shown -{kind}")

    def on_input_changed(self, event: Input.Changed) -> None:
        if not self._busy:
            self._confirmed = None
            self.query_one("#save-message", Label).set_classes("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._busy:
            return
        path = event.value
        try:
            target = check_target(path, sources=self._sources)
        except WriteRefused as exc:
            self._say(f"Not saved: {exc}", "error")
            return
        if os.path.lexists(Path(path).expanduser()) and self._confirmed != path:
            self._confirmed = path
            shown = path if target == Path(os.path.abspath(Path(path).expanduser())) else f"{path} (→ {target})"
            self._say(f"{shown} already exists: Enter again replaces it; or change the path", "ask")
            return
        self._busy = True
        self.query_one(Input).disabled = True
        self._say("Saving…", "ask")
        self._write(path)

    def saved(self, written: Path) -> None:
        """The App wrote the file: close (unless Esc already did)."""
        if self.is_current:
            self.dismiss(written)

    def failed(self, message: str) -> None:
        """The App could not write: say why; the path stays to fix."""
        if not self.is_attached:
            return
        self._busy = False
        field = self.query_one(Input)
        field.disabled = False
        field.focus()
        self._confirmed = None
        self._say(f"Not saved: {message}", "error")

    def action_cancel(self) -> None:
        self.dismiss(None)
