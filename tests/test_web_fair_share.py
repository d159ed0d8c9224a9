"""One client cannot lock everyone out of the page: per-address caps and deadlines, on a real uvicorn."""

from __future__ import annotations

import http.client
import os
import socket
import time

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from damka.controller.events import MessageShown  # noqa: E402
from web_support import Served, served  # noqa: E402,F401  (fixture)

ATTACKER = "127.0.0.2"
PHONE = "127.0.0.3"


def wait_until(condition, deadline_s: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + deadline_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {deadline_s} s: {what}")
        time.sleep(0.02)


def open_socket(served: Served, source: str, first: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", served.web.port), timeout=10, source_address=(source, 0))
    if first:
        sock.sendall(first)
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    """True once the server has closed `sock` (it reads end of file or a reset), without waiting."""
    sock.setblocking(False)
    try:
        data = sock.recv(65536)
    except BlockingIOError:
        return False
    except ConnectionError:
        return True
    finally:
        sock.setblocking(True)
    return data == b"" or data.startswith(b"HTTP/1.1 429")


def phone_is_served(served: Served) -> None:
    """Another address gets the state and the first frame of its event stream, each within 2 s."""
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=2, source_address=(PHONE, 0))
    conn.request("GET", "/api/state")
    response = conn.getresponse()
    response.read()
    assert response.status == 200, response.status
    conn.request("GET", "/api/events")
    response = conn.getresponse()
    assert response.status == 200, response.status
    assert response.readline().startswith(b"retry:")
    conn.close()
    assert time.monotonic() - started < 4


def test_a_phone_is_served_while_one_address_holds_idle_slow_and_streaming_sockets(served) -> None:
    held: list[socket.socket] = []
    try:
        for _ in range(220):
            held.append(open_socket(served, ATTACKER))                                   # idle
        for _ in range(30):
            held.append(open_socket(served, ATTACKER, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"))  # slowloris
        for _ in range(20):
            held.append(open_socket(served, ATTACKER, b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))  # unread
        for _ in range(5):
            phone_is_served(served)
        # the attacker's sockets beyond its share were closed at once
        wait_until(lambda: sum(closed_by_server(s) for s in held) >= len(held) - served.web.limits.per_address,
                   what="the sockets over the per-address cap are closed")
    finally:
        for sock in held:
            sock.close()


def test_idle_and_slowloris_sockets_are_closed_after_the_request_deadline(tmp_path) -> None:
    served = Served(tmp_path, request_timeout_s=1.0)
    try:
        idle = open_socket(served, ATTACKER)
        slow = open_socket(served, ATTACKER, b"GET /api/state HTTP/1.1\r\n")
        deadline = time.monotonic() + 20
        while not (closed_by_server(idle) and closed_by_server(slow)):
            assert time.monotonic() < deadline, "the idle and slow sockets stay open"
            slow.sendall(b"X-Slow: 1\r\n")   # a header line now and then: it never finishes
            time.sleep(0.1)
        assert served.web.limits.timed_out >= 2
        phone_is_served(served)
    finally:
        served.close()


def test_event_streams_are_capped_per_address(served) -> None:
    cap = served.web.limits.streams_per_address
    streams = []
    try:
        for _ in range(cap):
            conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=5, source_address=(ATTACKER, 0))
            conn.request("GET", "/api/events")
            response = conn.getresponse()
            assert response.status == 200
            streams.append(conn)
        conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=5, source_address=(ATTACKER, 0))
        conn.request("GET", "/api/events")
        response = conn.getresponse()
        assert response.status == 429 and "too many open pages" in response.read().decode()
        conn.close()
        phone_is_served(served)
    finally:
        for conn in streams:
            conn.close()


def test_a_reader_that_takes_nothing_is_dropped_not_buffered(tmp_path) -> None:
    served = Served(tmp_path, write_timeout_s=1.0)
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((ATTACKER, 0))
        sock.connect(("127.0.0.1", served.web.port))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        wait_until(lambda: served.web.limits.streams.get(ATTACKER) == 1, what="the stream is open")
        line = "x" * 20_000

        def flood() -> None:
            for ply in range(50):
                served.app.bus.publish(MessageShown(time_ms=0, ply=ply, text=line))

        deadline = time.monotonic() + 30
        while served.web.limits.timed_out == 0:
            assert time.monotonic() < deadline, "a page that reads nothing is kept and fed"
            served.rig.do(flood)
            time.sleep(0.05)
        wait_until(lambda: not served.web.limits.streams, what="the stream's slot is given back")
        sock.close()
        phone_is_served(served)
    finally:
        served.close()


def server_cpu_s(served: Served) -> float:
    """CPU seconds the server's thread has used (it shares the board's process and interpreter lock)."""
    fields = open(f"/proc/self/task/{served.web.thread_id}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads a thread's CPU time in /proc")
def test_an_address_reconnecting_at_its_cap_costs_the_board_little(tmp_path) -> None:
    """An address at its cap that reconnects as fast as it can (the abuse benchmark: about 1,000 a
    second) is refused as its connection is accepted: 0.24-0.33 ms of the server thread's CPU each before
    (asyncio's transport and task, uvicorn's protocol), about 0.07 ms now. CPU time, not wall time:
    what a loaded machine does to the clock does not count. The held sockets send nothing, so the
    request deadline is set past the test's length: on a loaded machine the 3000 reconnections took
    longer than the default 10 s, the held ones were closed as idle, and a reconnection was let in."""
    served = Served(tmp_path, request_timeout_s=600.0)
    held = [open_socket(served, ATTACKER) for _ in range(served.web.limits.per_address)]
    try:
        wait_until(lambda: served.web.limits.sockets.get(ATTACKER) == served.web.limits.per_address,
                   what="the attacker's share is taken")
        refused_before, before = served.web.limits.refused, server_cpu_s(served)
        for _ in range(3000):
            sock = open_socket(served, ATTACKER)
            assert sock.recv(200).startswith(b"HTTP/1.1 429")          # told why, then closed
            sock.close()
        wait_until(lambda: served.web.limits.refused - refused_before == 3000, what="all 3000 refused")
        per_socket_ms = (server_cpu_s(served) - before) / 3000 * 1000
        assert per_socket_ms < 0.15, f"{per_socket_ms:.3f} ms of the server's CPU a refused socket"
        phone_is_served(served)
    finally:
        for sock in held:
            sock.close()
        served.close()


def pair(served: Served, source: str, code: str | None = None) -> int:
    """POST /api/login from `source` with the pairing code (or `code`): the status."""
    conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10, source_address=(source, 0))
    conn.request("POST", "/api/login", body=b"{}", headers={
        "Content-Type": "application/json", "Cookie": "damka_csrf=t", "X-CSRF-Token": "t",
        "X-Damka-Code": code or served.code})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status


def test_a_paired_phone_is_served_while_many_addresses_hold_every_socket_an_unpaired_one_may(tmp_path) -> None:
    """Issue 36: 90 addresses x 24 event streams left another phone 0 of 20 (uvicorn's one
    limit_concurrency for everyone: 503). The unpaired addresses together now hold at most
    `unpaired_sockets`, shared evenly; the rest of uvicorn's limit is the paired phones'. Small
    numbers here (the benchmark has the issue's): 8 addresses x 8 sockets against 32 unpaired of 48
    in all. The held sockets send nothing, so the request deadline is set past the test's length."""
    served = Served(tmp_path, max_connections=48, unpaired_sockets=32, request_timeout_s=600.0)
    held: list[socket.socket] = []
    try:
        assert pair(served, PHONE) == 200                                         # paired before the crowd came
        for n in range(8):
            held += [open_socket(served, f"127.0.0.{20 + n}") for _ in range(8)]
        wait_until(lambda: served.web.limits.unpaired_open == 32, what="the unpaired addresses' share is taken")
        wait_until(lambda: sum(closed_by_server(s) for s in held) >= len(held) - 32,
                   what="the sockets over the unpaired share are closed")
        shares = sorted(len(h) for h in served.web.limits.unpaired_held.values())
        assert len(shares) == 8 and shares[-1] - shares[0] <= 2, shares                  # shared evenly
        fullest = max(served.web.limits.unpaired_held, key=lambda host: len(served.web.limits.unpaired_held[host]))
        more = open_socket(served, fullest)
        assert more.recv(200).startswith(b"HTTP/1.1 503"), "an address at its part of the share is refused"
        more.close()
        for _ in range(5):
            phone_is_served(served)                                               # state and event stream: 200
        conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10, source_address=("127.0.0.40", 0))
        conn.request("GET", "/api/state")                                         # a phone not paired yet gets in:
        assert conn.getresponse().status == 200                                   # the crowd gives up a socket
        conn.close()
        assert served.web.limits.unpaired_open <= 32 and served.web.limits.evicted > 0
    finally:
        for sock in held:
            sock.close()
        served.close()


def test_unpaired_event_streams_are_bounded_together_and_a_paired_phone_s_are_not_counted(tmp_path) -> None:
    """Event streams hold memory (90 x 24 of them took the board from 44 to 76 MB): the unpaired
    addresses together hold at most `unpaired_streams`; a paired phone opens its own beyond them."""
    served = Served(tmp_path, unpaired_streams=4)
    streams = []
    try:
        assert pair(served, PHONE) == 200
        for n in range(4):
            conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10,
                                              source_address=(f"127.0.0.{50 + n}", 0))
            conn.request("GET", "/api/events")
            assert conn.getresponse().status == 200
            streams.append(conn)
        conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10, source_address=("127.0.0.60", 0))
        conn.request("GET", "/api/events")
        response = conn.getresponse()
        assert response.status == 503 and "too many pages watch this board" in response.read().decode()
        conn.close()
        phone_is_served(served)
        assert served.web.limits.unpaired_watching == 4
    finally:
        for conn in streams:
            conn.close()
        served.close()
