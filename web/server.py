"""The web server of ``companion serve`` (and of the benchmarks, so they measure what
the table runs).

Design (measured against waitress in ``benchmarks/bench_streams.py``): gevent's WSGI
server does the network I/O in one event loop; the Flask app runs in a small pool of
ordinary threads; a live-update stream (``GET /events``) is a greenlet, not a thread.

- **Streams cost no worker.** The ``/events`` view hands its subscription to the server
  (``environ["companion.sse"]``) and returns at once; the server's greenlet writes what
  the table publishes. Publishers (a post, the camera, the tray: ordinary threads) wake
  the loop through one thread-safe async watcher. 200 open tablets are 200 greenlets
  (a few kB each), and the worker threads stay free for posts.
- **Nothing monkey-patched.** The tray link, the camera and SQLite keep their ordinary
  threads; only the server's own sockets are cooperative.
- **Bounded.** At most :data:`MAX_CONNECTIONS` connections, :data:`CONNECTIONS_PER_ADDRESS`
  from one address, a request head read within :data:`READ_TIMEOUT_S`; a body larger
  than the route's limit (:func:`body_limit`) is refused with 413 before it is read.
- **/healthz always answers** from the loop itself, even when every worker is busy.

The Flask app also runs under any other WSGI server (tests use Flask's client, the
waitress fixture): there ``/events`` falls back to one thread per stream.
"""

from __future__ import annotations

import functools
import io
import json
import os
import queue
import socket
import sys
import threading
from typing import Any, Callable, Iterable, Iterator

from . import memory

__all__ = ["create_server", "Server", "body_limit", "MAX_CONNECTIONS", "CONNECTIONS_PER_ADDRESS",
           "EVENT_BODY_LIMIT", "PHOTO_BODY_LIMIT"]

MAX_CONNECTIONS = 1000
CONNECTIONS_PER_ADDRESS = 64
READ_TIMEOUT_S = 60.0
#: A posted event (JSON) may not be larger than this.
EVENT_BODY_LIMIT = 64 * 1024
#: A photo upload (enrollment, calibration) may not be larger than this.
PHOTO_BODY_LIMIT = 8 * 1024 * 1024

_PHOTO_PREFIXES = ("/api/camera/", "/api/vision/")

#: How long a published message may wait for the request being answered (see
#: ``Server._on_wake``) before the streams get it anyway.
FANOUT_DEFER_MAX_S = 0.05
#: When a burst of at least this many streams is down to a quarter, freed memory is
#: handed back to the system (:func:`web.memory.trim`).
TRIM_AFTER_STREAMS = 16
#: ... that long after the last of those closes (one collection per burst, not per close).
TRIM_SETTLE_S = 0.5


def body_limit(path: str) -> int:
    """The largest request body accepted on ``path``."""
    return PHOTO_BODY_LIMIT if path.startswith(_PHOTO_PREFIXES) else EVENT_BODY_LIMIT


def _json_response(start_response: Callable[..., Any], status: str, body: dict[str, Any],
                   extra: Iterable[tuple[str, str]] = ()) -> list[bytes]:
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(data))),
                            ("Cache-Control", "no-store"), *extra])
    return [data]


def _too_large(start_response: Callable[..., Any], limit: int) -> list[bytes]:
    kb = limit // 1024
    return _json_response(start_response, "413 Request Entity Too Large", {
        "error": f"request body too large (limit {kb} KB)",
        "message": {"fr": f"Requête trop grande (limite : {kb} Ko).", "en": f"Request too large (limit {kb} KB)."},
    }, [("Connection", "close")])


class _Stream:
    """One live-update stream handed over by the ``/events`` view."""

    def __init__(self, sub: Any, first: list[str], ping_s: float, on_close: Callable[[], None]) -> None:
        self.sub = sub
        self.first = first
        self.ping_s = ping_s
        self.on_close = on_close
        self.event: Any = None  # a gevent Event, made in the loop's thread
        self.ping_due = False
        # Direct writes (see Server._push): set by the stream's greenlet once its head is out.
        self.fd: int | None = None
        self.chunked = True
        self.backlog = bytearray()  # bytes a full socket buffer left for the greenlet
        self.writing = False  # the greenlet is in a (cooperative) write: nobody else writes
        self.gone = False  # the client left (EOF or a failed write)
        self.ended = False  # a resync was sent: the stream ends


class _Frames:
    """Each published message as SSE bytes, encoded once for every stream: the broker
    hands every subscriber the very same ``data`` string, so the last few encodings,
    keyed by that object's identity, serve the whole fan-out."""

    def __init__(self, size: int = 8) -> None:
        self._size = size
        self._cache: list[tuple[str, str, bytes]] = []

    def get(self, name: str, data: str) -> bytes:
        for n, d, b in self._cache:
            if d is data and n == name:
                return b
        frame = f"event: {name}\ndata: {data}\n\n".encode("utf-8")
        self._cache.append((name, data, frame))
        if len(self._cache) > self._size:
            del self._cache[0]
        return frame


class _Deferred(list):  # type: ignore[type-arg]
    """A response body (list of bytes) that tells the server when it has been written
    (WSGI servers call ``close()`` once the response is sent)."""

    def __init__(self, chunks: list[bytes], done: Callable[[], None]) -> None:
        super().__init__(chunks)
        self._done: Callable[[], None] | None = done

    def close(self) -> None:
        done, self._done = self._done, None
        if done is not None:
            done()


class Server:
    """gevent WSGI server + a thread pool for the app; see the module docstring.

    ``run()`` serves in the calling thread until ``close()`` (from any thread).
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 8,
                 max_connections: int = MAX_CONNECTIONS, per_address: int = CONNECTIONS_PER_ADDRESS,
                 freeze_gc: bool = True) -> None:
        self.app = app
        #: Freeze start-up's objects out of the garbage collector (web.memory.freeze_startup).
        self.freeze_gc = freeze_gc
        self.threads = max(2, threads)
        self.max_connections = max_connections
        self.per_address = per_address
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(512)
        self.sock.setblocking(False)  # gevent's accept loop needs it
        self.effective_port: int = self.sock.getsockname()[1]
        self._lock = threading.Lock()
        self._conns: dict[str, int] = {}
        self._streams: set[_Stream] = set()
        self._hub: Any = None
        self._wsgi: Any = None
        self._pool: Any = None
        self._wake: Any = None
        self._started = threading.Event()
        self._stopped = threading.Event()
        self._frames = _Frames()
        # Loop-thread state of the deferred fan-out (see _on_wake).
        self._inflight = 0
        self._fanout_pending = False
        self._fanout_timer: Any = None
        self._trim_timer: Any = None
        self._peak_streams = 0

    # -- figures (for /healthz and the benchmarks) ------------------------------------
    @property
    def stream_count(self) -> int:
        with self._lock:
            return len(self._streams)

    # -- running --------------------------------------------------------------------
    def run(self) -> None:
        import gevent
        import gevent.event
        from gevent.pool import Pool
        from gevent.pywsgi import WSGIHandler, WSGIServer
        from gevent.threadpool import ThreadPool

        server = self

        class Handler(WSGIHandler):  # type: ignore[misc]
            def get_environ(self) -> dict[str, Any]:
                env: dict[str, Any] = super().get_environ()
                env["companion.socket"] = self.socket  # to notice a stream's client leaving
                env["companion.handler"] = self  # whether the response is chunked
                return env

            def handle(self) -> None:
                addr = str(self.client_address[0]) if isinstance(self.client_address, tuple) else "?"
                with server._lock:
                    n = server._conns.get(addr, 0)
                    if n >= server.per_address:
                        refused = True
                    else:
                        refused = False
                        server._conns[addr] = n + 1
                if refused:  # past the per-address cap: closed before anything is read
                    self.socket.close()
                    return
                try:
                    self.socket.settimeout(READ_TIMEOUT_S)
                    super().handle()
                finally:
                    with server._lock:
                        left = server._conns.get(addr, 1) - 1
                        if left > 0:
                            server._conns[addr] = left
                        else:
                            server._conns.pop(addr, None)

        self._hub = gevent.get_hub()
        self._pool = ThreadPool(self.threads)
        self._wake = self._hub.loop.async_()
        self._wake.start(self._on_wake)
        self._fanout_timer = self._hub.loop.timer(FANOUT_DEFER_MAX_S)
        self._trim_timer = self._hub.loop.timer(TRIM_SETTLE_S)
        memory.limit_arenas()
        if self.freeze_gc:
            memory.freeze_startup()
        self._wsgi = WSGIServer(self.sock, self._wsgi_app, spawn=Pool(self.max_connections), log=None,
                                error_log=_QuietLog(), handler_class=Handler)
        self._started.set()
        try:
            self._wsgi.serve_forever()
        finally:
            self._wake.stop()
            self._fanout_timer.stop()
            self._trim_timer.stop()
            self._pool.kill()
            self._stopped.set()

    def close(self) -> None:
        """Stop serving (callable from any thread) and close the listening socket."""
        if not self._started.is_set():
            self.sock.close()
            return
        if self._stopped.is_set():
            return
        with self._lock:
            streams = list(self._streams)
        for st in streams:
            st.sub.closed = True
        self.notify()
        self._hub.loop.run_callback_threadsafe(self._stop_in_loop)
        self._stopped.wait(10)

    def _stop_in_loop(self) -> None:
        import gevent

        gevent.spawn(self._wsgi.stop, 1)

    def _on_wake(self) -> None:
        """Something was published. While a request is being answered (typically the
        very post that published), the streams wait until its response is written, at
        most :data:`FANOUT_DEFER_MAX_S`: writing 200 streams first would put the whole
        fan-out in front of the poster's answer, and the worker thread finishing that
        answer would fight the loop for the GIL."""
        if self._inflight > 0:
            if not self._fanout_pending:
                self._fanout_pending = True
                self._fanout_timer.start(self._fan_out)
            return
        self._fan_out()

    def _fan_out(self) -> None:
        self._fanout_pending = False
        self._fanout_timer.stop()
        with self._lock:
            streams = list(self._streams)
        for st in streams:
            if st.fd is not None and not st.writing and not st.backlog:
                self._push(st)  # written from here: no greenlet switch, no per-stream write path
            elif st.event is not None:
                st.event.set()

    def _push(self, st: _Stream) -> None:
        """Write what waits in a stream's queue straight to its socket (non-blocking, in
        the loop); what the socket cannot take now, the end of the stream, a client gone:
        left to the stream's greenlet."""
        frames, last = self._drain(st.sub.queue)
        if frames:
            body = frames[0] if len(frames) == 1 else b"".join(frames)
            data = b"%x\r\n%s\r\n" % (len(body), body) if st.chunked else body
            try:
                sent = os.write(st.fd, data) if st.fd is not None else 0
            except BlockingIOError:
                sent = 0
            except OSError:  # reset, broken pipe: the client left
                st.gone = True
                sent = len(data)
            if sent < len(data):
                st.backlog += data[sent:]
            if last == "resync":
                st.ended = True
        if st.backlog or st.ended or st.gone or st.sub.closed:
            st.event.set()

    def _request_done(self) -> None:
        self._inflight -= 1
        if self._inflight <= 0:
            self._inflight = 0
            if self._fanout_pending:
                self._fan_out()

    def notify(self) -> None:
        """Wake the loop: something was published (callable from any thread)."""
        if self._wake is not None:
            self._wake.send()

    # -- the WSGI side ------------------------------------------------------------------
    def _wsgi_app(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        # out of the environ at once: the handler holds its environ (no reference cycle)
        sock = environ.pop("companion.socket", None)
        handler = environ.pop("companion.handler", None)
        path = environ.get("PATH_INFO", "")
        if path == "/healthz" and environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            return _json_response(start_response, "200 OK", {"ok": True, "streams": self.stream_count})
        limit = body_limit(path)
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length < 0:
            return _json_response(start_response, "400 Bad Request", {
                "error": "bad Content-Length",
                "message": {"fr": "En-tête Content-Length invalide.", "en": "Bad Content-Length header."}},
                [("Connection", "close")])
        if length > limit:
            return _too_large(start_response, limit)
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        try:
            body = environ["wsgi.input"].read(limit + 1 if chunked else length) if (length or chunked) else b""
        except (OSError, ValueError):
            return _json_response(start_response, "400 Bad Request", {
                "error": "could not read the request body",
                "message": {"fr": "Corps de requête illisible.", "en": "Unreadable request body."}},
                [("Connection", "close")])
        if len(body) > limit:
            return _too_large(start_response, limit)
        env = dict(environ)
        env["wsgi.input"] = io.BytesIO(body)
        env["CONTENT_LENGTH"] = str(len(body))
        env.pop("HTTP_TRANSFER_ENCODING", None)
        env["wsgi.errors"] = sys.stderr
        env["wsgi.multithread"] = True
        env["companion.sse"] = functools.partial(self._handoff, env)
        self._inflight += 1
        try:
            status, headers, chunks = self._pool.apply(self._call_app, (env,))
        except BaseException:
            self._request_done()
            raise
        # env holds the hand-off, which holds env: broken here, so the request's objects
        # go with their last reference, not at the next full garbage collection
        env.pop("companion.sse", None)
        stream = env.pop("companion.sse.stream", None)
        if stream is not None:
            self._request_done()
            start_response(status, [(k, v) for k, v in headers if k.lower() != "content-length"])
            return self._serve_stream(stream, sock, handler)
        start_response(status, headers)
        return _Deferred(chunks, self._request_done)

    def _call_app(self, env: dict[str, Any]) -> tuple[str, list[tuple[str, str]], list[bytes]]:
        """Run the Flask app in a worker thread; the whole response is collected there."""
        got: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
            got["status"], got["headers"] = status, headers
            return lambda data: None

        result = self.app(env, start_response)
        try:
            chunks = [bytes(c) for c in result] if "companion.sse.stream" not in env else []
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        return got["status"], got["headers"], chunks

    def _handoff(self, env: dict[str, Any], sub: Any, first: list[str], ping_s: float,
                 on_close: Callable[[], None]) -> None:
        """Called by the ``/events`` view (in a worker): the server takes the stream over."""
        sub.wake = self.notify
        env["companion.sse.stream"] = _Stream(sub, first, ping_s, on_close)

    def _serve_stream(self, st: _Stream, sock: Any, handler: Any = None) -> Iterator[bytes]:
        import gevent.event

        st.event = gevent.event.Event()
        watcher = None
        if sock is not None:
            # A stream's client sends nothing after its request: the socket becoming
            # readable means it left (EOF), so the stream ends at once, not at the next ping.
            def client_left() -> None:
                st.gone = True
                st.event.set()

            watcher = self._hub.loop.io(sock.fileno(), 1)
            watcher.start(client_left)

        def ping() -> None:
            st.ping_due = True
            st.event.set()

        # One repeating timer per stream, made once: a wait with a timeout would build
        # (and cancel) a gevent Timeout for every message.
        pinger = self._hub.loop.timer(st.ping_s, st.ping_s)
        pinger.start(ping)
        with self._lock:
            self._streams.add(st)
            self._peak_streams = max(self._peak_streams, len(self._streams))
        try:
            for chunk in st.first:
                yield chunk.encode("utf-8")
            # The head and the hello are out (the WSGI server wrote them before asking for
            # more): from here the stream's bytes go to its socket directly.
            if sock is not None and handler is not None:
                st.chunked = bool(getattr(handler, "response_use_chunked", True))
                st.fd = sock.fileno()
                self._write_direct(st, sock)
            else:
                yield from self._write_yielding(st)
        finally:
            st.fd = None
            pinger.stop()
            pinger.close()
            if watcher is not None:
                watcher.stop()
                watcher.close()
            with self._lock:
                self._streams.discard(st)
                left = len(self._streams)
                burst_over = self._peak_streams >= TRIM_AFTER_STREAMS and left <= self._peak_streams // 4
            st.on_close()
            if burst_over:  # most of a burst left: once the closing settles, hand its memory back
                self._trim_timer.stop()
                self._trim_timer.start(self._trim)

    def _write_direct(self, st: _Stream, sock: Any) -> None:
        """The stream's greenlet once its head is out: the fan-out (``_push``) writes
        what the socket takes at once; this writes the rest, the pings, and ends it."""
        while not st.sub.closed and not st.gone:
            if st.backlog:
                data = bytes(st.backlog)
                st.backlog.clear()
                st.writing = True
                try:
                    sock.sendall(data)  # waits (cooperatively) for a slow client
                except OSError:
                    return
                finally:
                    st.writing = False
                continue
            if st.ended:
                return
            if not st.sub.queue.empty():
                self._push(st)
                continue
            if st.ping_due:
                st.ping_due = False
                st.backlog += b"8\r\n: ping\n\n\r\n" if st.chunked else b": ping\n\n"
                continue
            st.event.clear()
            if st.sub.queue.empty() and not (st.sub.closed or st.gone or st.ping_due or st.backlog):
                st.event.wait()

    def _write_yielding(self, st: _Stream) -> Iterator[bytes]:
        """The stream's messages through the WSGI server (when its socket is unknown)."""
        while not st.sub.closed and not st.gone:
            frames, last = self._drain(st.sub.queue)
            if st.gone:
                break
            if frames:  # all that waited, in one write
                yield frames[0] if len(frames) == 1 else b"".join(frames)
                if last == "resync":
                    return
                continue
            if st.ping_due:
                st.ping_due = False
                yield b": ping\n\n"
                continue
            st.event.clear()
            if st.sub.queue.empty() and not st.sub.closed:
                st.event.wait()

    def _trim(self) -> None:
        with self._lock:
            self._peak_streams = len(self._streams)
        memory.trim()

    def _drain(self, q: Any) -> tuple[list[bytes], str | None]:
        """Every message waiting in a stream's queue, as shared SSE frames (up to a resync)."""
        frames: list[bytes] = []
        while True:
            try:
                name, data = q.get_nowait()
            except queue.Empty:
                return frames, None
            frames.append(self._frames.get(name, data))
            if name == "resync":
                return frames, name


class _QuietLog:
    """Where gevent writes errors: a tablet that went away mid-answer (broken pipe,
    reset) is normal on a Wi-Fi table and not written; anything else is, in full."""

    _NOISE = ("BrokenPipeError", "ConnectionResetError", "ConnectionAbortedError", "TimeoutError")

    def write(self, text: str) -> None:
        if text.strip() and not any(n in text for n in self._NOISE):
            sys.stderr.write(text if text.endswith("\n") else text + "\n")

    def flush(self) -> None:
        sys.stderr.flush()


def create_server(app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 8,
                  freeze_gc: bool = True) -> Server:
    return Server(app, host=host, port=port, threads=threads, freeze_gc=freeze_gc)
