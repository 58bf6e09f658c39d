"""Packers: each reproduces one tool's packet algorithm behind the `Packer` interface (`base`)."""
