"""The puzzle sets that ship with Damka: one JSON file per variant (data, no code)."""
