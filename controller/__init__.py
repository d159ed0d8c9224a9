"""Board controller: tracker, session, clock, game store, configuration."""
