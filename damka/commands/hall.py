"""`damka hall --config hall.toml`: the tournament hall (docs/hall.md).

Subscribes to the hall on the MQTT broker, keeps the hall's own record of
every game, and serves the hall page, the round's live PDN and the results CSV.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from damka.commands.net import port_number
from damka.logs import add_verbose_argument, level_of, logging_to_stderr


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hall",
        description="Subscribe to a hall on an MQTT broker (Mosquitto), record every board's games and serve the "
                    "hall page, the live PDN of the round and the results as CSV (docs/hall.md).")
    parser.add_argument("--config", type=Path, required=True, help="the hall's settings (hall.toml)")
    parser.add_argument("--port", type=port_number, default=None, help="the page's port (overrides [web] port)")
    add_verbose_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from damka.hall.config import load_hall_config

    config = load_hall_config(args.config)  # ConfigError: one clear line
    try:
        import uvicorn

        from damka.hall.page import hall_app
        from damka.hall.service import HallService
    except ImportError as error:
        print(f"damka hall: {error.name} is missing; pip install 'damka[hall]'", file=sys.stderr)
        return 2
    with logging_to_stderr(level_of("info", args.verbose)):
        service = HallService(config.hall, config.broker, config.db).start()
        port = args.port if args.port is not None else config.port
        print(f"hall {config.hall}: broker {config.broker}, page http://{config.bind}:{port}/", file=sys.stderr,
              flush=True)
        try:
            uvicorn.run(hall_app(service), host=config.bind, port=port, log_level="warning", access_log=False)
        finally:
            service.close()
    return 0
