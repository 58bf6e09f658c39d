"""Screens other than the main one: the preview, and the dialogs (help, quirks, budget, prompts, why)."""
