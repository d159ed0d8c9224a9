"""The board's microcontroller, as pure logic: scan, debounce, buttons,
LEDs with local blinking, and the serial protocol. Pins, the LED chain, the
byte transport and the clock are injected, so CPython tests run it unchanged
(`main.py` wires in the real MicroPython objects).

Plain MicroPython-compatible Python: no f-strings, dataclasses or typing.
"""

try:  # imported by the host as damka.firmware.device
    from . import fw_version, lights, protocol as P, scan
except ImportError:  # flat on the Pico's filesystem
    import fw_version  # type: ignore[import-not-found, no-redef]  # (the Pico's layout: mypy checks the package)
    import lights  # type: ignore[import-not-found, no-redef]
    import protocol as P  # type: ignore[import-not-found, no-redef]
    import scan  # type: ignore[import-not-found, no-redef]

ENCODER_BUTTONS = 2  # the encoder's steps are two more buttons: +1 (index n), -1 (index n + 1)

# HELLO's text: "damka-fw VERSION HASH" (docs/protocol.md): the host compares it with its own copy.
FIRMWARE = fw_version.NAME + " " + fw_version.VERSION + " " + fw_version.HASH
ERROR_REPORT_MS = 1000
BUTTON_MS = 5       # a button reading held this long (over two reads) counts, however few reads
SQUARE_MS = 5       # the same for a square: a poll slowed by a LEDS frame (up to ~10 ms on the chip) costs no latency
# Bytes read per poll at most. On the chip a byte costs tens of us to read and
# decode (a LEDS frame, ~110 bytes, is about 10 ms of it): a frame read whole
# in one poll left a 15-19 ms hole in the scan, and a 15 ms press fell in it.
# A frame is read over a few polls instead, the keys and squares scanned between.
RX_BYTES = 32
NO_COUNTS = ()      # no button bank: no counters


class Device:
    """One board. Call `poll()` as often as possible (`run()` does), at least
    100 times a second; each call scans the matrix once.

    matrix: object with ``scan()`` returning row masks (scan.PinMatrix)
    transport: ``write(data)``, and ``readinto(buf)`` -> how many bytes it put
        into buf (maybe 0), or ``read()`` -> bytes available now (maybe empty).
        With ``takes_views`` true, `write` is given a memoryview it must not
        keep (main.UsbSerial); else bytes.
    pixels: the LED chain or None. With ``wire`` true (chain.PioChain),
        ``write(buf)`` takes the chain's bytes (lights.LedImage); else
        ``write(words)``, the 24-bit GRB words in chain order.
    ticks_ms, ticks_diff: the clock (utime.ticks_ms / utime.ticks_diff)
    buttons: scan.ButtonBank or None
    encoder: encoder.Encoder or None; its steps count as two buttons after
        the bank's (+1 steps at index n, -1 steps at n + 1, n = len(bank.pins))
    buzzer: PWM-like (``freq(hz)``, ``duty_u16(d)``) or None: plays TONE frames

    On MicroPython a quiet poll makes no object (no frame, list, tuple, bytes,
    bound method or int past 2**30): every allocation would leave garbage
    that slows each later one until a collection (py/gc.c searches the heap
    from the last free block). Frames go out of one FrameWriter buffer, come in
    through one FrameDecoder buffer, and the LEDs are drawn into lights.LedImage's.
    """

    def __init__(self, matrix, transport, pixels, ticks_ms, ticks_diff=None,
                 buttons=None, rows=9, cols=9, debounce_scans=3, debounce_ms=SQUARE_MS,
                 serpentine=True, budget_ma=lights.DEFAULT_BUDGET_MA, name=FIRMWARE,
                 encoder=None, buzzer=None, button_ms=BUTTON_MS, rx_bytes=RX_BYTES):
        self.matrix = matrix
        self.transport = transport
        self.readinto = getattr(transport, "readinto", None)  # a bound method, made once
        self.views_out = getattr(transport, "takes_views", False)
        self.rx = bytearray(rx_bytes)  # what one poll reads at most
        self.pixels = pixels
        self.wire = getattr(pixels, "wire", False)
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff or (lambda a, b: a - b)
        self.buttons = buttons
        if buttons is not None and buttons.stable_ms is None:
            buttons.stable_ms = button_ms  # by time too, like the squares: a slow poll loses no press
        self.encoder = encoder
        self.encoder_counts = [0] * ENCODER_BUTTONS if encoder is not None else []
        self.tones = Tones(buzzer)
        self.rows = rows
        self.cols = cols
        self.serpentine = serpentine
        self.name = name
        self.debouncer = scan.Debouncer(rows, cols, debounce_scans, debounce_ms)
        self.decoder = P.FrameDecoder()
        self.writer = P.FrameWriter()
        self.seq = 0
        self.last_tick = ticks_ms()
        self.now = 0                 # ms since start, never wraps
        self.last_sent = -P.HEARTBEAT_MS
        self.last_error = -ERROR_REPORT_MS
        self.reported_bad = 0
        self.image = lights.LedImage(rows, cols, serpentine, budget_ma)
        self.redraw_at = 0  # type: int | None  # device ms at which the picture may next change (None: never)
        self.frame_id = 0            # +1 per LEDS frame applied
        self.leds_seq = None         # the host's seq of the LEDS frame applied last
        self.refused = None          # (seq, how many in a row) of LEDS frames refused as old
        self.stale = 0               # LEDS frames refused as copies or late
        self.scans = 0

    @property
    def budget_ma(self):
        """The LED supply's spare current: the frames are dimmed as a whole to stay within it."""
        return self.image.budget_ma

    @budget_ma.setter
    def budget_ma(self, value):
        self.image.budget_ma = value

    @property
    def cells(self):
        """The palette index of each cell, row-major, as the last LEDS frame set them."""
        return self.image.cells

    @property
    def palette(self):
        """(r, g, b, pattern) per palette entry as the last LEDS frame sent them; [0] is off."""
        image = self.image
        if not image.head_len:
            return [(0, 0, 0, P.STEADY)]
        return P.unpack_palette(bytes(image.head[:image.head_len]))[1]

    # -- sending ---------------------------------------------------------
    def send(self, msg_type, body=b""):
        payload = self.writer.payload
        n = min(len(body), len(payload) - P.BODY_AT - 2)  # room for the CRC: a longer text is cut
        payload[P.BODY_AT:P.BODY_AT + n] = body[:n]
        self.send_built(msg_type, n)

    def send_built(self, msg_type, n):
        """Send the frame whose body of n bytes is in the writer's payload already."""
        data = self.writer.frame(msg_type, self.seq, n)
        self.transport.write(data if self.views_out else bytes(data))
        self.seq = (self.seq + 1) & 0xFF

    def send_hello(self):
        self.send(P.HELLO, P.pack_hello(self.rows, self.cols, len(self.press_counts()), self.name))

    def press_counts(self):
        """Every button's wrapping press counter: the bank's, then the encoder's two."""
        return (list(self.buttons.counts) if self.buttons else []) + self.encoder_counts

    def send_snapshot(self):
        bank = self.buttons
        end = P.pack_snapshot_into(self.writer.payload, P.BODY_AT, self.now, self.debouncer.stable, self.cols,
                                   bank.state if bank else 0, bank.counts if bank else NO_COUNTS,
                                   self.encoder_counts)
        self.send_built(P.SNAPSHOT, end - P.BODY_AT)
        self.last_sent = self.now

    def send_button(self, index, count):
        P.pack_button_into(self.writer.payload, P.BODY_AT, index, count, self.now)
        self.send_built(P.BUTTON, 6)

    def send_ack(self, seq, msg_type):
        payload = self.writer.payload
        payload[P.BODY_AT] = seq & 0xFF
        payload[P.BODY_AT + 1] = msg_type
        self.send_built(P.ACK, 2)

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
        self.sense()
        good = self.decoder.good
        self.receive()
        if self.decoder.good != good:
            self.sense()  # a frame took milliseconds to apply: the squares and keys again, at once
        if self.decoder.bad != self.reported_bad and self.now - self.last_error >= ERROR_REPORT_MS:
            self.report_bad()
        if self.redraw_at is not None and self.now >= self.redraw_at:
            self.render()
        self.tones.update(self.now)

    def sense(self):
        """Scan the squares, read the keys and the encoder; a SNAPSHOT on a
        change or when the heartbeat is due."""
        self.tick()
        changed = self.debouncer.update(self.matrix.scan(), self.now)
        self.scans += 1
        if self.buttons is not None and self.read_buttons():
            changed = True
        if self.encoder is not None and self.encoder_steps():
            changed = True
        if changed or self.now - self.last_sent >= P.HEARTBEAT_MS:
            self.send_snapshot()

    def read_buttons(self):
        """Each press goes out with its own counter; a release changes the
        state only, and goes out at once in the SNAPSHOT. True on a change."""
        bank = self.buttons
        pressed = bank.step(self.now)
        if pressed:
            for i in range(len(bank.pins)):
                if pressed >> i & 1:
                    self.send_button(i, bank.counts[i])
        return bank.changed

    def receive(self):
        """The bytes the host sent since the last poll (RX_BYTES at most: a
        flood of frames cannot hold the scan up), each frame handled as its
        delimiter arrives."""
        if self.readinto is not None:
            data = self.rx
            n = self.readinto(data)
        else:
            data = self.transport.read()
            n = len(data)
        decoder = self.decoder
        at = 0
        while at < n:
            at = decoder.take(data, at, n)
            if decoder.ready:
                self.handle(decoder.msg_type, decoder.seq, decoder.body)

    def report_bad(self):
        self.reported_bad = self.decoder.bad
        self.last_error = self.now
        self.send(P.ERROR, P.pack_error(P.E_BAD_FRAME, str(self.decoder.bad)))

    def encoder_steps(self):
        """Send the encoder's steps since the last poll, each as a press of one
        of its two buttons with its own counter (a burst of steps in one poll
        is as many presses, each counted); True if there were any."""
        knob = self.encoder
        if not knob.by_irq:
            knob.poll()
        if not knob.moved():
            return False
        self.send_steps()
        return True

    def send_steps(self):
        steps = self.encoder.take_each()
        first = len(self.buttons.pins) if self.buttons else 0
        counts = self.encoder_counts
        for k in range(ENCODER_BUTTONS):
            for _ in range(steps[k]):
                counts[k] = (counts[k] + 1) & 0xFF
                self.send_button(first + k, counts[k])

    def run(self, sleep_ms=None, until=None):
        """Poll forever (or while `until()` is false), sleeping between scans."""
        self.start()
        while until is None or not until():
            self.poll()
            if sleep_ms is not None:
                sleep_ms()

    # -- receiving -------------------------------------------------------
    def handle(self, msg_type, seq, body):
        """One frame from the host; `body` may be a view into the decoder's buffer: kept only as a copy."""
        if msg_type == P.LEDS:  # the host's most frequent frame: first
            self.take_leds(seq, body)
        elif msg_type == P.HELLO:
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
        else:
            self.send(P.ERROR, P.pack_error(P.E_UNKNOWN_TYPE, str(msg_type)))

    def take_leds(self, seq, body):
        """Apply a LEDS frame (in order, well formed), show it and acknowledge
        it: the chain is started first (with DMA it runs by itself while the
        ACK is made). A malformed frame (a cell naming no palette entry too)
        is refused whole and changes nothing."""
        if not self.leds_in_order(seq):
            return
        problem = self.image.load(body)
        if problem is not None:
            self.send(P.ERROR, P.pack_error(P.E_BAD_LENGTH, problem))
            return
        self.frame_id += 1
        self.leds_seq = seq
        self.render()
        self.send_ack(seq, P.LEDS)

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
    def render(self):
        """Put the picture of now on the chain, if a pixel changed. The poll
        calls this only once `redraw_at` is reached (a blink edge of a pattern
        in use, or a new frame): between, nothing can have changed."""
        if self.pixels is None:
            self.redraw_at = None
            return
        image = self.image
        buf = image.draw(self.now)
        self.redraw_at = image.until
        if buf is not None:
            self.pixels.write(buf if self.wire else lights.chain_words(buf))


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
