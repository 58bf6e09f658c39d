"""nous's PostgreSQL store: memories, the turn log, and the rows the packer rebuilds from."""
