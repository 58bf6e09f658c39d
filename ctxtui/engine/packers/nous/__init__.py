"""The nous packer: a logged turn's memory sections rebuilt and re-cut (budgets, formats, packer)."""
