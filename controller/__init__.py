"""The board controller, one package per part: what happens between the
board's sensors and its LEDs, screen and store (docs/architecture.md has the
map). `board/` follows the physical board, `session/` plays one game on it,
`players/` are the seats it does not read, `game/` chooses, builds and
records a game, `app/` is everything around the games (menus, offers,
resume, views), `clock/` and `store/` need nothing from the rest, `words/`
is everything the board says, `cues/` its sounds and voice, `config/` what a
person gives it. `events.py` stays at the top: every part publishes on its
bus or listens to it."""
