"""A game as chosen, built and recorded: `setup.GameSetup` (what the menu,
the command line, the page and a stored game produce), `factory.build_game`
(the one way for the App, the simulator, the replay and DXP) and `record`
(the engine's game and the committed moves)."""
