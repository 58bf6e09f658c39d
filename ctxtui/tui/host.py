"""What screens and widgets ask of the running app, named here so that they need not import it.

Textual types every node's `app` as `App[object]`, which knows nothing of
ctxtui's own services; `tui.app.CtxtuiApp` is the one implementation of
`AppServices`. Importing the app class instead would close a cycle (the app
builds the screens, which hold the widgets).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.worker import Worker


class AppServices(Protocol):
    def theme_colors(self) -> dict[str, str]:
        """The theme's CSS variables, resolved once per theme."""
        ...

    def run_in_thread(self, group: str, job: Callable[[], None]) -> Worker[Any]:
        """Run `job` in a thread worker, exclusive in `group`."""
        ...


def services(node: DOMNode) -> AppServices:
    """`node.app` as ctxtui's app (a cast: Textual's `App[object]` cannot name these methods)."""
    return cast(AppServices, node.app)
