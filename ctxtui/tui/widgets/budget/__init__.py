"""The budget: the slider, the typed value and the status line that sums up the packet at that budget."""
