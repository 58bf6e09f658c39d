"""End-to-end tests: the installed `ctxtui` console script in a real terminal (tmux)."""
