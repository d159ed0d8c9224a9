"""Real devices behind small interfaces (see `interfaces`).

Backends import their hardware library (gpiozero, pyserial, spidev) only
inside their own module, so this package imports on any PC.

- `config`: the hardware's sections of board.toml ([board], [scan], [leds],
  [buttons], a backend's table); `damka.config` composes the whole file
- `layout`: matrix cells to square names (rotation, mirror, sub-board)
- `gpio_matrix`: the reed matrix and buttons on the Pi's GPIO (gpiozero)
- `serial_link`: the board behind the Pico, over USB serial (pyserial)
- `palette`: the one role -> colour / blink table (board and simulator)
- `leds`: LED frames encoded with the palette; WS2812 on the Pi's SPI
- `backends`: the backend registry (`BACKENDS`, `load_backend`) and
  `open_board(config)`; `backend_gpio`, `backend_serial`, `backend_sim` are
  the backends, each owning its config table and its doctor checks
- `mock_matrix`, `pty_device`: simulated hardware for tests, the doctor and benchmarks
- `errors`: `HardwareError` and its subclasses

The serial codec, debouncer and LED helpers live in `damka.firmware`
(plain MicroPython-compatible Python) and are shared with the firmware.
"""
