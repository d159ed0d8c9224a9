"""Real devices behind small interfaces (see `interfaces`).

Backends import their hardware library (gpiozero, pyserial, spidev) only
inside their own module, so this package imports on any PC.

- `config`: board.toml into a `BoardConfig` (one clear `ConfigError` per mistake)
- `layout`: matrix cells to square names (rotation, mirror, sub-board)
- `gpio_matrix`: the reed matrix and buttons on the Pi's GPIO (gpiozero)
- `serial_link`: the board behind the Pico, over USB serial (pyserial)
- `leds`: roles to colours / blink patterns; WS2812 on the Pi's SPI
- `backends`: `open_board(config)` picks and opens the backend
- `mock_matrix`, `pty_device`: simulated hardware for tests, the doctor and benchmarks
- `errors`: `HardwareError` and its subclasses

The serial codec, debouncer and LED helpers live in `damka.firmware`
(plain MicroPython-compatible Python) and are shared with the firmware.
"""
