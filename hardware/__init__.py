"""Real devices behind small interfaces (see `interfaces`).

Backends import their hardware library (gpiozero, pyserial) only inside their
own module, so this package imports on any PC.
"""
