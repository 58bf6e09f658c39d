"""Ask where to save the packet."""

from __future__ import annotations

from ctxtui.ui.filter_input import PromptScreen


class SaveScreen(PromptScreen):
    def __init__(self, default_path: str) -> None:
        super().__init__("Save the packet to (never inside .context/)", default_path, "path")
