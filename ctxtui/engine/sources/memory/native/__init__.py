"""ctxtui's own memory database: its reader and the only code that writes one."""
