"""A game as chosen (`setup.GameSetup`), built (`factory.build_game`: the one
way for the App, the simulator, the replay and DXP) and recorded (`record`:
the engine's game and the committed moves)."""
