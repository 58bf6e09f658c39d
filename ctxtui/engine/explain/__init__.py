"""Explanations over any packer: reasons in words, thresholds, sweeps, and ctx's quirks."""
