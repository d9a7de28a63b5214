"""Handing freed memory back to the system after a burst of tablets (glibc only).

200 tablets connecting allocate greenlets, handlers and buffers in many small pieces;
when they leave, CPython frees them, but glibc's allocator keeps the pages (the free
pieces sit among live ones, and every thread that allocated has its own arena). The
server's resident memory then stays at its peak: +25-35 % after a round of 200 streams,
measured by ``benchmarks/bench_streams.py``. Most of it was not even free: each stream's
WSGI environ held the stream's hand-off, which held the environ, a reference cycle that
kept the request's objects (environ, body buffer, subscription, queue, closures) until the
rare full garbage collection; each round of 200 tablets added ~3 MB. :mod:`web.server`
breaks that cycle. Then (no-ops elsewhere than glibc: musl, macOS, Windows):

- :func:`limit_arenas` caps glibc's arenas (``M_ARENA_MAX``) so the app's worker
  threads share two instead of taking one each (up to 8 per core);
- :func:`freeze_startup` (at the server's start) keeps the objects of start-up out of
  later collections, so that
- :func:`trim`, called by :mod:`web.server` when a burst of streams is over, can run a
  full collection (the small cycles each request leaves) in well under a millisecond,
  then ``malloc_trim(0)``, which returns the free pages of every arena.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import platform
from typing import Any

__all__ = ["limit_arenas", "trim", "freeze_startup", "ARENAS"]

#: glibc arenas the process may use (``M_ARENA_MAX``).
ARENAS = 2
_M_ARENA_MAX = -8  # from glibc's malloc.h

_libc: Any = None
_probed = False


def _glibc() -> Any:
    """The C library if it is glibc, else None (probed once)."""
    global _libc, _probed
    if not _probed:
        _probed = True
        if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
            try:
                lib = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                lib.malloc_trim.argtypes = [ctypes.c_size_t]
                lib.malloc_trim.restype = ctypes.c_int
                lib.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
                lib.mallopt.restype = ctypes.c_int
                _libc = lib
            except (OSError, AttributeError):
                _libc = None
    return _libc


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Cap glibc's malloc arenas; True if it was done."""
    lib = _glibc()
    return bool(lib is not None and lib.mallopt(_M_ARENA_MAX, arenas) == 1)


def freeze_startup() -> None:
    """Move every object alive now (modules, the app, the folded table) out of the
    garbage collector's sight (:func:`gc.freeze`): a full collection then walks only what
    was made since, ~0.5 ms instead of 70-90 ms of the event loop. Objects frozen are
    still freed by reference counting; only a cycle among them would stay."""
    gc.collect()
    gc.freeze()


def trim() -> bool:
    """Collect the cyclic garbage of the burst (each request leaves a few small cycles,
    werkzeug's router for one), then return freed heap pages to the system (glibc);
    True if glibc released some."""
    gc.collect()
    lib = _glibc()
    return bool(lib is not None and lib.malloc_trim(0) == 1)
