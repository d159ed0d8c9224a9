"""The draughts search as it was at 10c7519 (before issue 26), kept as the baseline of benchmarks/ai_speed.py. Not installed, never edited."""
