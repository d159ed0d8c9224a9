"""The lessons that ship with Damka: one TOML file each, taken in the order of their names (data, no code)."""
