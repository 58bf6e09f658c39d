"""A line-API scroll view's new content size, without laying the screen out when nothing on it moves."""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Set `view.virtual_size`; lay the screen out again only when its scrollbar comes or goes.

    `virtual_size` is a layout reactive: set, it lays out the whole screen. The
    entries table's row count changes at every step with a filter whose rows
    change with the budget (a fate, a reason's label), and that layout cost
    ~30 ms a step at 50,000 memories. A view whose own size is its container's
    (`1fr`, not its content's) only needs its scrollbar's thumb and its scroll
    range to follow: they are updated here as Textual's layout would
    (`_scroll_update`: the thumb, the scroll offset clamped to the new range);
    the caller repaints what changed. A new width, or a vertical scrollbar that
    appears or goes (the content area changes width), takes the layout.
    """
    old = view.virtual_size
    if size == old:
        return
    height = view.container_size.height
    if not view.is_mounted or height <= 0 or size.width != old.width or (size.height > height) != (old.height > height):
        view.virtual_size = size
        return
    view.set_reactive(ScrollView.virtual_size, size)
    view._scroll_update(size)
