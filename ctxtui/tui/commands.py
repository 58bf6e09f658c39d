"""The command palette's ctxtui commands (`actions.PALETTE`), beside Textual's system commands."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from ctxtui.tui.actions import PALETTE, Action


class CtxtuiCommands(Provider):
    """ctxtui's own actions in the command palette, and those of what is on screen (columns, packers)."""

    def _actions(self) -> list[Action]:
        dynamic = getattr(self.app, "dynamic_palette", None)
        return [*PALETTE, *(dynamic() if dynamic is not None else ())]

    async def discover(self) -> Hits:
        for action in self._actions():
            yield DiscoveryHit(action.palette, partial(self.app.run_action, action.action), help=action.palette_help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for action in self._actions():
            score = matcher.match(action.palette)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(action.palette),
                    partial(self.app.run_action, action.action),
                    help=action.palette_help,
                )
