"""The tournament clock: time controls, the clock itself, what it shows and
how it is written into a game's record. Needs nothing from the rest of the
controller (only the engine, for a variant's sides), so it can be read and
tested alone.

    timecontrol.py   a time control: stages, timing methods; the compact text form (`5+3`)
    pdn_tag.py       the PDN TimeControl tag form (`300+3`)
    presets.py       named controls, a variant's casual one, handicaps
    controls.py      the controls a game plays with, from text; the clock for a variant
    clock.py         the clock, the one way in: the time, the arbiter, the log, snapshots
    timing.py        the running turn: presses, flags, pause, undo, take-back
    account.py       one side's time, stage and periods, and the timing rules
    arbiter.py       the PIN, its tokens and the log
    history.py       the presses an undo or a take-back goes back to
    records.py       the clock's state, events and press results
    pdn.py           the clock in a PDN record: `[%clock ...]` and the TimeControl tags
    view.py          what the screen shows of the clock
    time_source.py   where the clock reads the time (monotonic, or a fake for tests)
    errors.py        the clock's errors
"""
