"""The firmware as it was at 676facf (before issue 21), kept as the baseline of benchmarks/firmware_cost.py. Not installed, never edited."""
