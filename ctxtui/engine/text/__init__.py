"""Text semantics of the tools we reproduce (Go, later JS and Rust) and token counting."""
