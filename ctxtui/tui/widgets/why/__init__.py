"""The why panel: one entry's fate and the numbers behind it."""
