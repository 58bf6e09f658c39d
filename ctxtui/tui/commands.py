"""The command palette's ctxtui commands (`actions.PALETTE`), beside Textual's system commands."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from ctxtui.tui.actions import PALETTE


class CtxtuiCommands(Provider):
    """ctxtui's own actions in the command palette."""

    async def discover(self) -> Hits:
        for action in PALETTE:
            yield DiscoveryHit(action.palette, partial(self.app.run_action, action.action), help=action.palette_help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for action in PALETTE:
            score = matcher.match(action.palette)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(action.palette),
                    partial(self.app.run_action, action.action),
                    help=action.palette_help,
                )
