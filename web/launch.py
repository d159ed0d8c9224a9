"""Starting the page beside a board loop, from `damka run` / `damka sim` (--web PORT, [web] in board.toml)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from damka.controller.store.budget import ArchiveBudget

if TYPE_CHECKING:
    from damka.controller.app import App
    from damka.web.settings import WebSettings
    from damka.web.server import WebServer


LOCAL = "127.0.0.1"  # the simulator's page: this computer only, unless --bind says otherwise


def start_web(app: App, port: int | None, settings: WebSettings | None = None, *,
              bind: str | None = None, archive: ArchiveBudget = ArchiveBudget()) -> WebServer | None:
    """The running `WebServer`, or None when off (no --web and [web] enabled = false, or no config
    asking for it). A missing `web` extra is one clear line, not a crash of the board. The
    address: `bind` (--bind), else the config's [web] bind, else this computer only. `archive`:
    the config's [archive], where an upload's import stops."""
    if port is None:  # not asked for on the command line: the config decides
        if settings is None or not settings.enabled:
            return None
        port = settings.port
    try:
        from damka.web.server import WebConfig, WebServer
    except ImportError as error:
        print(f"web page off: {error.name} is missing; pip install 'damka[web]'", file=sys.stderr)
        return None
    config = WebConfig(port=port,
                       bind=bind or (settings.bind if settings is not None else LOCAL),
                       pin=settings.arbiter_pin if settings is not None else "",
                       proxies=settings.proxies if settings is not None else (),
                       hosts=settings.hosts if settings is not None else (), archive=archive)
    server = WebServer(app, config)
    server.start()
    print(f"web page: http://{config.bind}:{server.port}/  pairing code {server.access.code}, "
          f"arbiter PIN {server.access.pin}", file=sys.stderr)
    return server
