"""Shabka's SQLite store: its rows as memories, and what `shabka context-pack` reads."""
