"""The `k` dialog: every setting of the packer on screen, editable; each change recomputes the packet.

A row per knob: its name in words, an editor (a text field, a list of
choices, a switch), where the value came from (flag, environment, .ctxrc,
default, set here) and what it does. Enter in a text field (or any change of
a list or switch) asks the main screen to apply it; the dialog stays open and
follows the new values, so a user can try one value after another. A value
the packer cannot take gets a message under its row, never a bell alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Select, Static, Switch

from ctxtui.engine.packers.base import Knob
from ctxtui.safe_text import clean_line
from ctxtui.tui.actions import KNOBS, bindings
from ctxtui.tui.widgets.budget.settings import knob_value


def editable_text(knob: Knob) -> str:
    """The knob's value as its text field starts."""
    value = knob.value
    if value is None:
        return ""
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, float):
        return f"{value * 100:g}%" if knob.is_share else f"{value:g}"  # as the settings line shows it
    return str(value)


class KnobsScreen(ModalScreen[None]):
    """The packer's knobs; `apply(key, value)` returns None when applied, else the reason in words."""

    BINDINGS = bindings(KNOBS)
    AUTO_FOCUS = "Input, Select, Switch"  # the first editor, not the scroll around them
    DEFAULT_CSS = """
    KnobsScreen { align: center middle; }
    KnobsScreen > Vertical { width: 96; max-width: 100%; height: auto; max-height: 90%; padding: 1 2;
                             border: round $primary; background: $panel; }
    KnobsScreen VerticalScroll { height: auto; max-height: 30; }
    KnobsScreen .knob { height: auto; margin-bottom: 1; }
    KnobsScreen .knob-row { height: auto; }
    KnobsScreen .knob-label { width: 30; padding-top: 1; text-style: bold; }
    KnobsScreen Input, KnobsScreen Select { width: 1fr; }
    KnobsScreen .knob-source { width: 16; padding-top: 1; color: $text-muted; }
    KnobsScreen .knob-help { color: $text-muted; padding-left: 30; width: 1fr; }
    KnobsScreen .knob-error { color: $error; padding-left: 30; display: none; }
    KnobsScreen .knob-error.shown { display: block; }
    KnobsScreen #knobs-hint { color: $text-muted; }
    """

    def __init__(self, title: str, knobs: tuple[Knob, ...], apply: Callable[[str, Any], str | None]) -> None:
        super().__init__()
        self._title = title
        self._knobs = {knob.key: knob for knob in knobs}
        self._apply = apply

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(clean_line(self._title), markup=False)
            with VerticalScroll():
                if not self._knobs:
                    yield Static("This packer has no settings besides the budget.", markup=False)
                for knob in self._knobs.values():
                    with Vertical(classes="knob"):
                        with Horizontal(classes="knob-row"):
                            yield Label(clean_line(knob.label), classes="knob-label", markup=False)
                            yield self._editor(knob)
                            yield Label(
                                f"({clean_line(knob.source)})",
                                id=f"source-{knob.key}",
                                classes="knob-source",
                                markup=False,
                            )
                        if knob.help:
                            yield Static(clean_line(knob.help), classes="knob-help", markup=False)
                        yield Label("", id=f"error-{knob.key}", classes="knob-error", markup=False)
            yield Static(  # a Static wraps: the whole hint on a narrow terminal too
                "Enter applies a typed value · lists and switches apply at once · ctrl+s saves to .ctxrc · Esc closes",
                id="knobs-hint",
                markup=False,
            )

    def _editor(self, knob: Knob) -> Input | Select[Any] | Switch:
        if knob.kind == "bool":
            return Switch(bool(knob.value), id=f"knob-{knob.key}")
        if knob.kind == "choice" and knob.choices:
            options = [(clean_line(str(choice)), choice) for choice in knob.choices]
            if knob.value is not None and knob.value not in knob.choices:
                options.insert(0, (clean_line(str(knob.value)), knob.value))
            allow_blank = knob.default is None
            value = knob.value if knob.value is not None else Select.NULL
            return Select(options, value=value, allow_blank=allow_blank, id=f"knob-{knob.key}")
        return Input(editable_text(knob), placeholder=clean_line(knob_value(knob)), id=f"knob-{knob.key}")

    def follow(self, knobs: tuple[Knob, ...]) -> None:
        """The packer changed (a knob applied): show where each value now comes from."""
        for knob in knobs:
            self._knobs[knob.key] = knob
            for label in self.query(f"#source-{knob.key}"):
                if isinstance(label, Label):
                    label.update(f"({clean_line(knob.source)})")

    def _submit(self, key: str, value: Any) -> None:
        error = self._apply(key, value)
        label = self.query_one(f"#error-{key}", Label)
        label.update(clean_line(error or ""))
        label.set_class(bool(error), "shown")

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        key = (event.input.id or "").removeprefix("knob-")
        knob = self._knobs.get(key)
        if knob is None:
            return
        try:
            value = knob.parse(event.value)
        except ValueError as exc:
            self._submit_error(key, str(exc))
            return
        self._submit(key, value)

    def _submit_error(self, key: str, error: str) -> None:
        label = self.query_one(f"#error-{key}", Label)
        label.update(clean_line(error))
        label.add_class("shown")

    @on(Select.Changed)
    def _chosen(self, event: Select.Changed) -> None:
        key = (event.select.id or "").removeprefix("knob-")
        knob = self._knobs.get(key)
        if knob is None:
            return
        value = None if event.value is Select.NULL else event.value
        if value != knob.value:
            self._submit(key, value)

    @on(Switch.Changed)
    def _switched(self, event: Switch.Changed) -> None:
        key = (event.switch.id or "").removeprefix("knob-")
        knob = self._knobs.get(key)
        if knob is not None and event.value != knob.value:
            self._submit(key, event.value)

    def action_save(self) -> None:
        """ctrl+s: save the settings changed here to `.ctxrc` (the main screen shows the change and asks first)."""
        self.dismiss(None)
        self.app.call_later(self.app.main.action_save_ctxrc)  # type: ignore[attr-defined]

    def action_close(self) -> None:
        self.dismiss(None)
