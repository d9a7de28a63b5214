"""`companion vision read` / `eval` run as a user would, in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from vision.labelled import list_photos, shared_photos_dir

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = shared_photos_dir()
needs_photos = pytest.mark.skipif(PHOTOS is None, reason="shared tray photos not found")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "vision", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert PHOTOS is not None
    d = tmp_path_factory.mktemp("photos")
    for ph in list_photos(PHOTOS, "test")[:2]:
        shutil.copy(ph.path, d)
        shutil.copy(ph.path.with_suffix(".txt"), d)
    (d / "broken.jpg").write_bytes((d / sorted(p.name for p in d.glob("*.jpg"))[0]).read_bytes()[:2000])
    return d


@needs_photos
def test_read_json_lines_and_annotate(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "ann"
    res = run("read", str(folder), "--json", "--annotate", str(out))
    assert res.returncode == 1, res.stderr  # one broken file in the folder
    lines = [json.loads(line) for line in res.stdout.splitlines()]
    assert [Path(l["image"]).name for l in lines] == sorted(p.name for p in folder.glob("*.jpg"))
    broken = next(l for l in lines if l["image"].endswith("broken.jpg"))
    assert "truncated" in broken["error"] and broken["objects"] == []
    good = [l for l in lines if "error" not in l]
    assert len(good) == 2
    for l in good:
        assert l["ms"] > 0 and l["objects"]
        for o in l["objects"]:
            assert set(o) >= {"kind", "value", "box", "confidence", "status"}
        original = cv2.imread(l["image"])
        drawn = cv2.imread(str(out / (Path(l["image"]).stem + ".jpg")))
        assert drawn is not None and drawn.shape == original.shape
        x, y, w, h = l["objects"][0]["box"]
        # the box outline is drawn in green (read) or orange (pending)
        edge = drawn[max(y, 0), max(x, 0) + w // 2].astype(int)
        assert edge[1] > 100 and edge[1] > edge[0] + 40
    assert not (out / "broken.jpg").exists()


@needs_photos
def test_read_plain_text(folder: Path) -> None:
    jpg = sorted(p for p in folder.glob("IMG*.jpg"))[0]
    res = run("read", str(jpg))
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(str(jpg)) and "objects:" in res.stdout and "ms)" in res.stdout


@needs_photos
def test_eval_json(folder: Path) -> None:
    res = run("eval", str(folder), "--json")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["photos"] == 2
    assert s["recall"] >= 0.85
    assert len(s["confusion"]["counts"]) == 6 and len(s["confusion"]["columns"]) == 8
    text = run("eval", str(folder))
    assert "dice found (recall)" in text.stdout and "confusion" in text.stdout


def test_bad_paths_and_folders(tmp_path: Path) -> None:
    res = run("read", str(tmp_path / "nope.jpg"), "--json")
    assert res.returncode == 1
    assert "no such file" in json.loads(res.stdout)["error"]
    res = run("read", str(tmp_path))
    assert res.returncode == 1 and "no image found" in res.stderr
    res = run("eval", str(tmp_path))
    assert res.returncode == 1 and "no labelled photos" in res.stderr
    res = run("eval", str(tmp_path / "nope"))
    assert res.returncode == 1 and "not a folder" in res.stderr


def test_an_unknown_kind_to_look_for_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    import numpy as np

    jpg = tmp_path / "tray.jpg"
    cv2.imwrite(str(jpg), np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8))
    res = run("read", str(jpg), "--look-for", "lieu,dragon")
    assert res.returncode == 2 and res.stdout == ""
    assert "unknown kind dragon" in res.stderr and "lieu" in res.stderr and "d20" in res.stderr
    assert run("read", str(jpg), "--look-for", "Lieu,d6").returncode == 0


def test_registering_the_commands_imports_nothing_heavy() -> None:
    code = ("import sys, argparse, vision.commands as c; p = argparse.ArgumentParser(); "
            "c.register(p.add_subparsers()); "
            "print(sorted(m for m in ('cv2', 'numpy', 'torch') if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.stdout.strip() == "[]", res.stderr
