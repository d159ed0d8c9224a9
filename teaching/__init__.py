"""Teaching by light: puzzles (and lessons) on the physical board.

`puzzles.py` is the puzzle as stored and shipped (`sets/<variant>.json`),
`puzzle_maker.py` finds new ones from self-play and real games, proved by
`damka.engine.puzzle_proof`.
"""
