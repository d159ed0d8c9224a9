"""The board's microcontroller, as pure logic: scan, debounce, buttons,
LEDs with local blinking, and the serial protocol. Pins, the LED chain, the
byte transport and the clock are injected, so CPython tests run it unchanged
(`main.py` wires in the real MicroPython objects).

Plain MicroPython-compatible Python: no f-strings, dataclasses or typing.
"""

try:  # imported by the host as damka.firmware.device
    from . import lights, protocol as P, scan
except ImportError:  # flat on the Pico's filesystem
    import lights
    import protocol as P
    import scan

ENCODER_BUTTONS = 2  # the encoder's steps are two more buttons: +1 (index n), -1 (index n + 1)

FIRMWARE = "damka-fw 1.0"
ERROR_REPORT_MS = 1000


class Device:
    """One board. Call `poll()` as often as possible (`run()` does), at least
    100 times a second; each call scans the matrix once.

    matrix: object with ``scan()`` returning row masks (scan.PinMatrix)
    transport: ``read()`` -> bytes available now (maybe empty), ``write(bytes)``
    pixels: NeoPixel-like (``pixels[i] = (r, g, b)``, ``write()``) or None
    ticks_ms, ticks_diff: the clock (utime.ticks_ms / utime.ticks_diff)
    buttons: scan.ButtonBank or None
    encoder: encoder.Encoder or None; its steps count as two buttons after
        the bank's (+1 steps at index n, -1 steps at n + 1, n = len(bank.pins))
    buzzer: PWM-like (``freq(hz)``, ``duty_u16(d)``) or None: plays TONE frames
    """

    def __init__(self, matrix, transport, pixels, ticks_ms, ticks_diff=None,
                 buttons=None, rows=9, cols=9, debounce_scans=3, debounce_ms=20,
                 serpentine=True, budget_ma=lights.DEFAULT_BUDGET_MA, name=FIRMWARE,
                 encoder=None, buzzer=None):
        self.matrix = matrix
        self.transport = transport
        self.pixels = pixels
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff or (lambda a, b: a - b)
        self.buttons = buttons
        self.encoder = encoder
        self.encoder_counts = [0] * ENCODER_BUTTONS if encoder is not None else []
        self.tones = Tones(buzzer)
        self.rows = rows
        self.cols = cols
        self.serpentine = serpentine
        self.budget_ma = budget_ma
        self.name = name
        self.debouncer = scan.Debouncer(rows, cols, debounce_scans, debounce_ms)
        self.decoder = P.FrameDecoder()
        self.seq = 0
        self.last_tick = ticks_ms()
        self.now = 0                 # ms since start, never wraps
        self.last_sent = -P.HEARTBEAT_MS
        self.last_error = -ERROR_REPORT_MS
        self.reported_bad = 0
        self.brightness = 255
        self.palette = [(0, 0, 0, P.STEADY)]
        self.cells = bytes(rows * cols)
        self.shown = None            # the colours last written to the chain
        self.frame_id = 0            # +1 per LEDS frame applied
        self.leds_seq = None         # the host's seq of the LEDS frame applied last
        self.refused = None          # (seq, how many in a row) of LEDS frames refused as old
        self.stale = 0               # LEDS frames refused as copies or late
        self.render_key = None
        self.scans = 0

    # -- sending ---------------------------------------------------------
    def send(self, msg_type, body=b""):
        self.transport.write(P.encode_frame(msg_type, self.seq, body))
        self.seq = (self.seq + 1) & 0xFF

    def send_hello(self):
        self.send(P.HELLO, P.pack_hello(self.rows, self.cols, len(self.press_counts()), self.name))

    def press_counts(self):
        """Every button's wrapping press counter: the bank's, then the encoder's two."""
        return (list(self.buttons.counts) if self.buttons else []) + self.encoder_counts

    def send_snapshot(self):
        state = self.buttons.state if self.buttons else 0
        counts = self.press_counts()
        body = P.pack_snapshot(self.now, self.debouncer.stable, self.cols, state, counts)
        self.send(P.SNAPSHOT, body)
        self.last_sent = self.now

    # -- the loop --------------------------------------------------------
    def start(self):
        """Announce ourselves: a leading delimiter flushes any half frame the
        host holds, then HELLO and a first SNAPSHOT."""
        self.transport.write(b"\x00")
        self.tick()
        self.debouncer.update(self.matrix.scan(), self.now)
        self.send_hello()
        self.send_snapshot()
        self.render()

    def tick(self):
        t = self.ticks_ms()
        self.now += self.ticks_diff(t, self.last_tick)
        self.last_tick = t

    def poll(self):
        self.tick()
        raw = self.matrix.scan()
        self.scans += 1
        changed = self.debouncer.update(raw, self.now)
        pressed = self.buttons.update() if self.buttons else []
        pressed += self.encoder_steps()
        counts = self.press_counts()
        for i in pressed:
            self.send(P.BUTTON, P.pack_button(i, counts[i], self.now))
        if changed or pressed or self.now - self.last_sent >= P.HEARTBEAT_MS:
            self.send_snapshot()
        data = self.transport.read()
        if data:
            for msg_type, seq, body in self.decoder.feed(data):
                self.handle(msg_type, seq, body)
        if self.decoder.bad != self.reported_bad and self.now - self.last_error >= ERROR_REPORT_MS:
            self.reported_bad = self.decoder.bad
            self.last_error = self.now
            self.send(P.ERROR, P.pack_error(P.E_BAD_FRAME, str(self.decoder.bad)))
        self.render()
        self.tones.update(self.now)

    def encoder_steps(self):
        """The encoder's steps since the last poll, as presses of its two buttons."""
        if self.encoder is None:
            return []
        self.encoder.poll()
        steps = self.encoder.take()
        first = len(self.buttons.pins) if self.buttons else 0
        index = first if steps > 0 else first + 1
        pressed = []
        for _ in range(abs(steps)):
            k = index - first
            self.encoder_counts[k] = (self.encoder_counts[k] + 1) & 0xFF
            pressed.append(index)
        return pressed

    def run(self, sleep_ms=None, until=None):
        """Poll forever (or while `until()` is false), sleeping between scans."""
        self.start()
        while until is None or not until():
            self.poll()
            if sleep_ms is not None:
                sleep_ms()

    # -- receiving -------------------------------------------------------
    def handle(self, msg_type, seq, body):
        if msg_type == P.HELLO:
            try:
                version = P.unpack_hello(body)[0]
            except ValueError:
                version = -1
            if version != P.PROTOCOL_VERSION:
                self.send(P.ERROR, P.pack_error(P.E_VERSION, "protocol " + str(P.PROTOCOL_VERSION)))
            self.leds_seq = None  # a host (re)connected: its numbering may start anywhere
            self.send_hello()
            self.send_snapshot()
        elif msg_type == P.REQUEST:
            self.send_snapshot()
        elif msg_type == P.TONE:
            try:
                self.tones.play(P.unpack_tone(body), self.now)
            except ValueError as exc:
                self.send(P.ERROR, P.pack_error(P.E_BAD_LENGTH, str(exc)))
        elif msg_type == P.LEDS:
            if not self.leds_in_order(seq):
                return
            try:
                self.brightness, self.palette, self.cells = P.unpack_leds(body, self.rows * self.cols)
                self.frame_id += 1
                self.leds_seq = seq
            except ValueError as exc:
                self.send(P.ERROR, P.pack_error(P.E_BAD_LENGTH, str(exc)))
                return
            self.send(P.ACK, P.pack_ack(seq, msg_type))
            self.render()
        else:
            self.send(P.ERROR, P.pack_error(P.E_UNKNOWN_TYPE, str(msg_type)))

    def leds_in_order(self, seq):
        """A LEDS frame not newer than the one applied last is a copy or came late:
        applying it would bring an old picture back, so it is dropped (no ACK).
        Three refused in a row, each newer than the one before, mean the host
        numbers afresh (a restarted host whose HELLO was lost): the third is taken."""
        if self.leds_seq is None or P.seq_delta(seq, self.leds_seq) > 0:
            self.refused = None
            return True
        run = self.refused
        count = run[1] + 1 if run is not None and P.seq_delta(seq, run[0]) > 0 else 1
        if count >= 3:
            self.refused = None
            return True
        self.refused = (seq, count)
        self.stale += 1
        return False

    # -- LEDs --------------------------------------------------------------
    def colours(self):
        """The colour of every cell right now, row-major, blinking applied."""
        return lights.frame_colours(self.palette, self.cells, self.brightness, self.now, self.budget_ma)

    def render(self):
        if self.pixels is None:
            return
        # Cheap check first (a few palette entries, not 81 cells): has the
        # frame or any pattern's on/off phase changed since the last write?
        key = (self.frame_id, tuple(lights.lit(e[3], self.now) for e in self.palette))
        if key == self.render_key:
            return
        self.render_key = key
        colours = self.colours()
        if colours == self.shown:
            return  # nothing blinked or changed: no need to clock the chain
        cols = self.cols
        for i, colour in enumerate(colours):
            r, c = divmod(i, cols)
            self.pixels[lights.chain_index(r, c, cols, self.serpentine)] = colour
        self.pixels.write()
        self.shown = colours


class Tones:
    """Notes on a PWM buzzer pin, played from the device's clock in `update()`
    (never a sleep: the scan goes on while a cue sounds). A new TONE replaces
    what is playing."""

    DUTY = 32768  # half the period: the loudest square wave

    def __init__(self, pwm):
        self.pwm = pwm
        self.notes = []
        self.index = 0
        self.ends = 0
        self.sounding = False
        self.played = 0  # notes started (tests)

    def play(self, notes, now):
        self.notes = list(notes)
        self.index = -1
        self.ends = now
        self.update(now)

    def update(self, now):
        if self.pwm is None or self.index >= len(self.notes) or now < self.ends:
            return
        self.index += 1
        if self.index >= len(self.notes):
            self.silence()
            return
        freq, ms = self.notes[self.index]
        self.ends = now + ms
        self.played += 1
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(self.DUTY)
            self.sounding = True
        else:
            self.silence()

    def silence(self):
        if self.pwm is not None:
            self.pwm.duty_u16(0)
        self.sounding = False
