"""Bridges between Damka's engine and other draughts software (installed as `damka.bridges`).

Pure protocol code: the syntax of the lines and the notation other programs
use; the I/O loops that speak them live in `damka.commands`.
"""
