"""The tier bars: how each slice of the budget was used."""
