"""Every game, kept in SQLite, and its way to and from PDN files. Needs
nothing from the controller but the clock package (a stored game's time
control and clock times are written as the clock writes them).

    schema.py   the tables, their migrations and the connection
    store.py    the store: write a game move by move, read it back
    pdn.py      stored games to PDN and back (`damka export`, `damka import`)
"""
