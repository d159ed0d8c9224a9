"""Sound and voice: the listener that turns a game's events into cues and
sentences (`listener`), and the sinks that play them off the board loop (`sinks`)."""
