"""The waitress server of ``companion serve`` (and of the benchmarks, so they measure
the same thing).

Server-Sent Events are one endless response per tablet. waitress keeps what a response
has sent in its output buffer and only starts a new buffer when the current one reaches
``outbuf_high_watermark`` (16 MB by default): with the full table state in every event,
twenty tablets would hold 16 MB each before the memory stopped growing. A 256 KB
watermark rotates the buffer after a few events; the cost is that a response waits for
its client when more than that is unsent, which only slows the tablet that is not
reading.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_server", "OUTBUF_HIGH_WATERMARK"]

OUTBUF_HIGH_WATERMARK = 256 * 1024


def create_server(app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 48) -> Any:
    from waitress import create_server as _create

    return _create(app, host=host, port=port, threads=threads, channel_timeout=120, ident="companion",
                   outbuf_high_watermark=OUTBUF_HIGH_WATERMARK, outbuf_overflow=OUTBUF_HIGH_WATERMARK)
