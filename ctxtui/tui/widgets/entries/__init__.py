"""The entries table: its columns (one definition), its rows (engine outcomes as strings and sort keys), the Line-API widget."""
