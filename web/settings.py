"""[web] of the board's config: the board's web page (docs/web.md)."""

from __future__ import annotations

from dataclasses import dataclass

from damka.controller.config.config_file import Section
from damka.web.security import PIN_DIGITS  # stdlib only: the web extra is not needed to read the config


@dataclass(frozen=True)
class WebSettings:
    """[web]: the board's web page (docs/web.md)."""

    enabled: bool = True
    port: int = 8080
    bind: str = "0.0.0.0"
    arbiter_pin: str = ""   # "": one is made up at each start, shown on the board's screen and logged
    proxies: tuple[str, ...] = ()   # addresses of a reverse proxy in front: only they may set X-Forwarded-For
    hosts: tuple[str, ...] = ()     # more names the page answers to (Host header); ["*"]: any


def parse_web(table: Section) -> WebSettings:
    web = WebSettings(table.get("enabled", bool, True), table.int_in("port", 8080, 0, 65535),
                      table.get("bind", str, "0.0.0.0"), _arbiter_pin(table),
                      table.strings("trusted_proxies"), table.strings("hosts"))
    table.done()
    return web


def _arbiter_pin(table: Section) -> str:
    """[web] arbiter_pin: "" (made up at start) or at least PIN_DIGITS characters (it opens everything)."""
    pin = str(table.get("arbiter_pin", (str, int), "")).strip()
    if pin and len(pin) < PIN_DIGITS:
        raise table.error("arbiter_pin", f"too short: give at least {PIN_DIGITS} characters, "
                                         "or leave it out and the board makes one up and shows it")
    return pin
