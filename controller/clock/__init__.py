"""The tournament clock: time controls, the clock itself, what it shows and
how it is written into a game's record. Needs nothing from the rest of the
controller (only the engine, for a variant's sides), so it can be read and
tested alone.

    timecontrol.py   a time control: stages, timing methods, handicaps
    controls.py      the controls a game plays with, from text; the clock for a variant
    clock.py         the clock: turns, presses, flags, pause, take-back, snapshots
    pdn.py           the clock in a PDN record: `[%clock ...]` and the TimeControl tags
    view.py          what the screen shows of the clock
    time_source.py   where the clock reads the time (monotonic, or a fake for tests)
    errors.py        the clock's errors
"""
