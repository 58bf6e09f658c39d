"""drift's Cortex stores: v1 (TypeScript) and v2 (the Rust rewrite)."""
