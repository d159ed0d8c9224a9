"""A rotary encoder's quadrature decoder, for the firmware and its tests.

The two contacts A and B of a mechanical encoder close in a Gray-code order
and rest at a detent on AB = 11 (both open, pulled up). Turned one way A
closes first (11 -> 01 -> 00 -> 10 -> 11: +1), the other way B does (-1). Contacts bounce: one of them chatters
between two neighbouring states, which walks back and forth and cancels out;
a jump of both bits at once (a missed state) is ignored, never guessed. A
step is counted only when a full cycle of four valid transitions ends back
at the detent, so bounce can never make a step alone.

    q = Quadrature()
    q.feed(a, b)         # on every pin change (IRQ) or every poll
    q.take()             # steps since the last call: +n with A leading (clockwise on most encoders), -n the other way
    q.take_each()        # (steps A leading, steps B leading) since the last call: a burst both ways stays whole

`feed` may run in a hard interrupt while the main loop calls `take`: the
interrupt writes only `forward`, `back` and its own state, the main loop only
what it has taken, so neither can undo the other's write (no lock, no
allocation in the interrupt).

Plain MicroPython-compatible Python: no f-strings, dataclasses or typing.
"""

# (previous AB << 2 | new AB) -> quarter steps: +1 clockwise, -1 back, 0 none or invalid.
TRANSITIONS = (0, -1, 1, 0,
               1, 0, 0, -1,
               -1, 0, 0, 1,
               0, 1, -1, 0)
DETENT = 3          # AB = 11: both contacts open at rest
QUARTERS = 4        # transitions per detent
WRAP = 0xFFFF       # the step counters wrap here: small ints, no allocation in an interrupt


class Quadrature:
    def __init__(self, a=1, b=1):
        self.state = (a << 1) | b
        self.quarters = 0
        self.forward = 0   # steps with A leading, ever (wrapping; written only by feed)
        self.back = 0      # steps with B leading, ever (wrapping; written only by feed)
        self.taken_forward = 0  # forward and back at the last take (written only by the taker)
        self.taken_back = 0
        self.invalid = 0   # double transitions seen (a fast spin or a bad contact)

    def feed(self, a, b):
        new = ((1 if a else 0) << 1) | (1 if b else 0)
        if new == self.state:
            return
        delta = TRANSITIONS[(self.state << 2) | new]
        if delta == 0:
            self.invalid += 1
        self.quarters += delta
        self.state = new
        if new == DETENT:
            # Back at rest: a whole cycle either way is one step; a partial
            # one (bounce, a turn started and undone) is forgotten.
            if self.quarters >= QUARTERS:
                self.forward = (self.forward + 1) & WRAP
            elif self.quarters <= -QUARTERS:
                self.back = (self.back + 1) & WRAP
            self.quarters = 0

    def moved(self):
        """Whether a step was made since the last take (no allocation: every poll asks)."""
        return self.forward != self.taken_forward or self.back != self.taken_back

    def take_each(self):
        """(steps A leading, steps B leading) since the last take."""
        forward, back = self.forward, self.back
        steps = ((forward - self.taken_forward) & WRAP, (back - self.taken_back) & WRAP)
        self.taken_forward, self.taken_back = forward, back
        return steps

    def take(self):
        """The net steps since the last take (+ A leading)."""
        forward, back = self.take_each()
        return forward - back


class Encoder:
    """An encoder on two pins (value() 1 when open): polled, or fed from pin IRQs.

    `by_irq` is set once `poll` is the pins' interrupt handler: the main loop
    then leaves the pins alone (two writers of the decoder's state could
    interleave and lose a transition)."""

    def __init__(self, pin_a, pin_b):
        self.pin_a = pin_a
        self.pin_b = pin_b
        self.decoder = Quadrature(pin_a.value(), pin_b.value())
        self.by_irq = False

    def poll(self, _pin=None):
        """Read both pins now (also usable as the pins' IRQ handler)."""
        self.decoder.feed(self.pin_a.value(), self.pin_b.value())

    def take(self):
        return self.decoder.take()

    def moved(self):
        return self.decoder.moved()

    def take_each(self):
        return self.decoder.take_each()
