"""Live-update streams hold no worker thread: with more streams open than the server has
threads, /healthz and posts still answer, and every stream gets every event. Streams
are capped per address. (Issue 15: 48 idle streams froze waitress's 48 threads.)

The short version of benchmarks/bench_streams.py; the timeouts only catch a hang."""

from __future__ import annotations

import http.client
import json

from tests.web.conftest import PIN

HANG = 20.0  # seconds: only a frozen server takes this long


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


class Stream:
    def __init__(self, base: str, source: str = "127.0.0.1") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", _port(base), timeout=HANG,
                                               source_address=(source, 0))
        self.conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status

    def next_event(self) -> tuple[str, dict]:
        name, data = None, []
        while True:
            line = self.resp.fp.readline().decode("utf-8")
            if not line:
                raise AssertionError("stream closed")
            line = line.rstrip("\n")
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "" and name:
                return name, json.loads("".join(data))

    def close(self) -> None:
        self.conn.close()


def _request(base: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", _port(base), timeout=HANG)
    try:
        headers = {"Content-Type": "application/json", "X-Table-Pin": PIN}
        conn.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def test_healthz_and_posts_answer_while_more_streams_than_threads_are_open(service):
    """60 streams against a server of 8 worker threads (waitress froze at 48 of 48)."""
    import threading

    from web.app import create_app
    from web.server import create_server

    app = create_app({"SERVICE": service, "TABLE_PIN": PIN, "SSE_PING_S": 5.0})
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.effective_port}"
    streams: list[Stream] = []
    try:
        for i in range(60):  # 10 loopback addresses, 6 tablets each (under the cap of 8)
            s = Stream(base, f"127.0.0.{10 + i % 10}")
            assert s.status == 200
            assert s.next_event()[0] == "hello"
            streams.append(s)
        status, health = _request(base, "GET", "/healthz")
        assert status == 200 and health["ok"] is True and health["streams"] == 60
        assert _request(base, "POST", "/api/events", {"type": "table.new_game", "data": {"game": "dummy"}})[0] == 201
        assert _request(base, "POST", "/api/events", {"type": "dummy.add", "data": {"n": 5}})[0] == 201
        for s in streams:
            got = [s.next_event(), s.next_event()]
            assert [n for n, _ in got] == ["table", "table"]
            assert got[-1][1]["state"]["state"]["total"] == 5
        assert _request(base, "GET", "/api/state")[1]["state"]["total"] == 5
    finally:
        for s in streams:
            s.close()
        server.close()
        thread.join(HANG)
    assert not thread.is_alive()


def test_streams_are_capped_per_address_and_freed_on_close(app, live_server):
    from web.guard import stream_gate

    gate = stream_gate(app)
    cap = app.config["STREAMS_PER_ADDRESS"]
    streams = [Stream(live_server, "127.0.0.77") for _ in range(cap)]
    for s in streams:
        assert s.status == 200 and s.next_event()[0] == "hello"
    refused = Stream(live_server, "127.0.0.77")
    assert refused.status == 429
    body = json.loads(refused.resp.read())
    assert "Trop de pages ouvertes" in body["message"]["fr"] and body["message"]["en"]
    refused.close()
    other = Stream(live_server, "127.0.0.78")  # another tablet is not affected
    assert other.status == 200 and other.next_event()[0] == "hello"
    other.close()
    streams.pop().close()
    assert gate.wait_below("127.0.0.77", cap, HANG)  # the server notices the client leaving
    again = Stream(live_server, "127.0.0.77")
    assert again.status == 200 and again.next_event()[0] == "hello"
    again.close()
    for s in streams:
        s.close()


def test_oversized_body_refused_before_it_is_read(live_server):
    big = {"type": "dummy.add", "data": {"n": 1, "pad": "x" * (70 * 1024)}}
    status, body = _request(live_server, "POST", "/api/events", big)
    assert status == 413
    assert "64" in body["message"]["fr"] and "Ko" in body["message"]["fr"]


def test_connections_are_capped_per_address(app):
    """Idle connections from one address (a slow-loris) cannot take every slot: past the
    cap the server closes the new ones, and other addresses are served."""
    import socket
    import threading

    from web.server import Server

    server = Server(app, host="127.0.0.1", port=0, threads=2, per_address=3)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.effective_port}"
    idle = []
    try:
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", server.effective_port), timeout=HANG,
                                         source_address=("127.0.0.91", 0))
            idle.append(s)
        # /healthz from another connection: the three idle ones are counted by now
        # (handlers start in accept order) and do not block the server.
        assert _request(base, "GET", "/healthz")[0] == 200
        extra = socket.create_connection(("127.0.0.1", server.effective_port), timeout=HANG,
                                         source_address=("127.0.0.91", 0))
        extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            got = extra.recv(100)
        except ConnectionResetError:  # closed with our request unread
            got = b""
        assert got == b""  # closed without an answer
        extra.close()
        status, _ = _request(base, "GET", "/api/state")
        assert status == 200
    finally:
        for s in idle:
            s.close()
        server.close()
        thread.join(HANG)


def test_every_stream_shares_one_encoding_of_each_message():
    """The fan-out encodes a published message once, whatever the number of streams."""
    from web.server import _Frames

    frames = _Frames()
    data = '{"a":"é"}'
    first = frames.get("table", data)
    assert first == 'event: table\ndata: {"a":"é"}\n\n'.encode("utf-8")
    assert frames.get("table", data) is first  # the same bytes object for the next stream
    assert frames.get("devices", data) is not first


def test_a_burst_of_messages_reaches_a_stream_in_order_and_pings_go_on(service, live_server):
    """Messages that queued up while the stream waited leave in one write, in order; with
    nothing to say the stream still pings (SSE_PING_S is 0.2 s in these tests)."""
    s = Stream(live_server)
    assert s.next_event()[0] == "hello"
    service.submit({"type": "table.new_game", "data": {"game": "dummy"}})
    for n in (1, 2, 3, 4):
        service.submit({"type": "dummy.add", "data": {"n": n}})
    totals = [s.next_event()[1]["state"]["state"].get("total") for _ in range(5)]
    assert totals == [0, 1, 3, 6, 10]
    while True:  # a ping line arrives although no message does
        line = s.resp.fp.readline()
        assert line, "stream closed"
        if line.startswith(b": ping"):
            break
    s.close()


def test_memory_trim_is_harmless_everywhere():
    from web import memory

    assert memory.trim() in (True, False)
    assert memory.limit_arenas() in (True, False)


def test_a_closed_stream_is_freed_without_waiting_for_the_garbage_collector(app, service, live_server):
    """Each stream's environ held its hand-off, which held the environ: a reference cycle
    that kept the request's objects (subscription, queue, body buffer) until a full
    garbage collection, ~3 MB per round of 200 tablets (bench_streams.py)."""
    import functools
    import gc
    import threading
    import weakref

    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        s = Stream(live_server)
        assert s.next_event()[0] == "hello"
        (sub,) = list(service.broker._subs)
        freed = threading.Event()
        weakref.finalize(sub, freed.set)
        del sub
        s.close()
        assert freed.wait(HANG), "the stream's subscription was kept alive by a reference cycle"
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        handoffs = [o for o in gc.garbage if isinstance(o, functools.partial) and getattr(o.func, "__name__", "") == "_handoff"]
        assert handoffs == [], "a stream's environ and its hand-off were left to the garbage collector"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()


def test_a_client_that_stops_reading_gets_every_message_whole_and_in_order(service, live_server):
    """The fan-out writes to each socket without waiting; what a full socket cannot take
    is left to the stream's greenlet, which writes it once the client reads again (6 MB
    here, more than loopback's buffers)."""
    import socket as socketlib

    sock = socketlib.socket()
    sock.setsockopt(socketlib.SOL_SOCKET, socketlib.SO_RCVBUF, 4096)  # before connecting: a small window
    sock.settimeout(HANG)
    sock.connect(("127.0.0.1", _port(live_server)))
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    s = Stream.__new__(Stream)
    s.conn = sock
    s.resp = http.client.HTTPResponse(sock)
    s.resp.begin()
    assert s.resp.status == 200 and s.next_event()[0] == "hello"
    pad = "é" * 15_000
    for i in range(200):
        service.broker.publish("table", {"i": i, "pad": pad})
    got = []
    while len(got) < 200:
        name, data = s.next_event()
        if name == "table":
            assert data["pad"] == pad
            got.append(data["i"])
    assert got == list(range(200))
    s.close()
