"""Reusable Textual widgets for ctxtui: they display engine results and post user intents."""
