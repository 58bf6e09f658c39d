"""A work-around for auto-height widgets whose height follows their content (tier bars, banner, why panel)."""

from __future__ import annotations

from textual.widget import Widget


def forget_height(widget: Widget) -> None:
    """Make the next layout measure `widget` again; call it before changing what decides its height.

    Textual 8.2.8 caches a widget's box model by `_layout_updates`, which
    `refresh(layout=True)` bumps only when no layout is pending. Two updates in
    one frame (the first packet arriving while the mount's layout is still
    pending; thresholds, then the first selection) could keep the first
    content's height: five tier bars drawn as one, a 12-line explanation cut to 1 line.
    """
    widget._layout_updates += 1
