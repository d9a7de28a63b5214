from __future__ import annotations

import numpy as np
import pytest

from companion.app.photos import PhotoStore


def test_oldest_photos_are_evicted_past_the_count_limit(tmp_path) -> None:
    store = PhotoStore(tmp_path, max_bytes=10**9, max_files=3)
    ids = [store.save_jpeg(b"x" * 100) for _ in range(5)]
    assert len(store) == 3
    assert [store.path(i) is not None for i in ids] == [False, False, True, True, True]


def test_size_limit_keeps_the_newest_even_when_it_alone_is_too_big(tmp_path) -> None:
    store = PhotoStore(tmp_path, max_bytes=250, max_files=100)
    a = store.save_jpeg(b"a" * 100)
    b = store.save_jpeg(b"b" * 100)
    assert store.total_bytes == 200
    c = store.save_jpeg(b"c" * 300)
    assert store.path(a) is None and store.path(b) is None and store.path(c) is not None
    assert store.total_bytes == 300


def test_store_reopens_with_what_is_on_disk_and_encodes_frames(tmp_path) -> None:
    store = PhotoStore(tmp_path, max_files=10)
    pid = store.save(np.full((20, 30, 3), 128, np.uint8))
    assert store.path(pid).read_bytes()[:2] == b"\xff\xd8"  # a JPEG
    again = PhotoStore(tmp_path, max_files=10)
    assert pid in again and again.total_bytes == store.total_bytes


@pytest.mark.parametrize("bad", ["../etc/passwd", "", "20260101T000000-1", None])
def test_bad_ids_are_not_paths(tmp_path, bad) -> None:
    assert PhotoStore(tmp_path).path(bad) is None  # type: ignore[arg-type]
