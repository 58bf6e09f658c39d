"""ctx's packets: `ctx agent` (0.8.1 and, soon, 0.8.0) and the memories joined to them."""
