"""Where the broker is and how to log in: the `[hall]` section of a board's config, or the hall's."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BrokerSettings:
    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    ca_file: str = ""        # TLS: the CA that signed the broker's certificate ("": the system's)
    cert_file: str = ""      # TLS client certificate (instead of a password)
    key_file: str = ""
    username: str = ""
    password: str = ""

    def __repr__(self) -> str:  # never the password (logs, tracebacks)
        return f"BrokerSettings({self.host}:{self.port}, tls={self.tls}, user={self.username or '-'})"

    __str__ = __repr__


def mqtt_client(client_id: str, settings: BrokerSettings, *, clean: bool = True) -> Any:
    """A paho client set up for `settings` (not yet connected)."""
    from paho.mqtt.client import Client
    from paho.mqtt.enums import CallbackAPIVersion

    client = Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean)
    if settings.username:
        client.username_pw_set(settings.username, settings.password or None)
    if settings.tls:
        client.tls_set(ca_certs=settings.ca_file or None, certfile=settings.cert_file or None,
                       keyfile=settings.key_file or None, cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.max_inflight_messages_set(100)
    client.max_queued_messages_set(0)
    return client
