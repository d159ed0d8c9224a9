"""Sub-commands of the `damka` command line."""
