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

Plain MicroPython-compatible Python: no f-strings, dataclasses or typing.
"""

# (previous AB << 2 | new AB) -> quarter steps: +1 clockwise, -1 back, 0 none or invalid.
TRANSITIONS = (0, -1, 1, 0,
               1, 0, 0, -1,
               -1, 0, 0, 1,
               0, 1, -1, 0)
DETENT = 3          # AB = 11: both contacts open at rest
QUARTERS = 4        # transitions per detent


class Quadrature:
    def __init__(self, a=1, b=1):
        self.state = (a << 1) | b
        self.quarters = 0
        self.steps = 0
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
                self.steps += 1
            elif self.quarters <= -QUARTERS:
                self.steps -= 1
            self.quarters = 0

    def take(self):
        steps, self.steps = self.steps, 0
        return steps


class Encoder:
    """An encoder on two pins (value() 1 when open): polled, or fed from pin IRQs."""

    def __init__(self, pin_a, pin_b):
        self.pin_a = pin_a
        self.pin_b = pin_b
        self.decoder = Quadrature(pin_a.value(), pin_b.value())

    def poll(self, _pin=None):
        """Read both pins now (also usable as the pins' IRQ handler)."""
        self.decoder.feed(self.pin_a.value(), self.pin_b.value())

    def take(self):
        return self.decoder.take()
