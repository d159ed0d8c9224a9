"""Every game, kept in SQLite, and its way to and from PDN files. Needs
nothing from the controller but the clock package (a stored game's time
control and clock times are written as the clock writes them).

    schema.py    the tables, their migrations and the connection
    store.py     the store, the one way in: owns the connection and its transactions
    rows.py      how a game, a move, a result, a player out are written in the tables; the records read back
    progress_rows.py  a learner's finished lessons and puzzles (teaching/progress.py adds them up)
    rebuild.py   a stored game rebuilt with the engine from its rows, every move checked
    imports.py   a whole game stored at once (an imported record)
    budget.py    how far imports may fill the archive ([archive] max_games, max_megabytes)
    pdn.py       stored games to PDN and back (`damka export`, `damka import`)
"""
