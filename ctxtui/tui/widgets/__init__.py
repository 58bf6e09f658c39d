"""Widgets grouped by feature: the budget (slider, typed input, status line), the entries table, the tier bars, the why panel."""
