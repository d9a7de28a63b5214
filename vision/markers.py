"""The four ArUco calibration markers and the printable sheet.

Print the sheet at 100 % (no "fit to page"), check the 50 mm scale bar with a ruler, cut
the four squares and stick them flat in the tray's corners: marker 0 top-left (as the
camera sees the tray), 1 top-right, 2 bottom-right, 3 bottom-left, each square's edge
against the tray walls. The markers are from OpenCV's ``DICT_4X4_50`` (ids 0-3).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

__all__ = ["MarkerLayout", "DEFAULT_LAYOUT", "ARUCO_DICT", "marker_image", "marker_sheet", "write_marker_sheet"]

ARUCO_DICT = cv2.aruco.DICT_4X4_50


@dataclass(frozen=True)
class MarkerLayout:
    """Where the markers lie in the tray, in millimetres.

    ``tray_mm`` is the inner floor of the tray (width, height); each marker is a black
    square of ``marker_mm`` printed with a white quiet zone of ``quiet_mm`` around it, the
    paper square pushed into a corner (``inset_mm`` from the walls).
    """

    tray_mm: tuple[float, float] = (240.0, 170.0)
    marker_mm: float = 20.0
    quiet_mm: float = 3.0
    inset_mm: float = 0.0

    @property
    def paper_mm(self) -> float:
        return self.marker_mm + 2 * self.quiet_mm

    def marker_centres_mm(self) -> list[tuple[float, float]]:
        """Centres of markers 0..3 (top-left, top-right, bottom-right, bottom-left)."""
        c = self.inset_mm + self.paper_mm / 2
        w, h = self.tray_mm
        return [(c, c), (w - c, c), (w - c, h - c), (c, h - c)]

    def marker_corners_mm(self) -> dict[int, np.ndarray]:
        """The four corners of each marker in ArUco order (TL, TR, BR, BL), in tray mm."""
        s = self.marker_mm / 2
        out = {}
        for mid, (cx, cy) in enumerate(self.marker_centres_mm()):
            out[mid] = np.array([[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]], np.float64)
        return out

    def to_json(self) -> dict[str, float | list[float]]:
        return {"tray_mm": list(self.tray_mm), "marker_mm": self.marker_mm, "quiet_mm": self.quiet_mm,
                "inset_mm": self.inset_mm}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "MarkerLayout":
        return cls(tuple(float(v) for v in obj["tray_mm"]), float(obj["marker_mm"]),  # type: ignore[arg-type]
                   float(obj.get("quiet_mm", 3.0)), float(obj.get("inset_mm", 0.0)))


DEFAULT_LAYOUT = MarkerLayout()


def marker_image(marker_id: int, side_px: int, border_px: int = 0) -> np.ndarray:
    """Marker ``marker_id`` as a grey image of ``side_px`` plus a white ``border_px`` margin."""
    d = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    m = cv2.aruco.generateImageMarker(d, int(marker_id), int(side_px))
    if border_px:
        m = cv2.copyMakeBorder(m, border_px, border_px, border_px, border_px, cv2.BORDER_CONSTANT, value=255)
    return m


def marker_sheet(marker_mm: float = 20.0, quiet_mm: float = 3.0, dpi: int = 300) -> np.ndarray:
    """An A4 page (portrait) with markers 0-3 at true size, labels and a 50 mm scale bar."""
    px = dpi / 25.4
    W, H = int(round(210 * px)), int(round(297 * px))
    page = np.full((H, W), 255, np.uint8)
    side = int(round(marker_mm * px))
    border = int(round(quiet_mm * px))
    font = cv2.FONT_HERSHEY_SIMPLEX
    fs = dpi / 300 * 1.0
    th = max(1, int(round(dpi / 150)))
    cv2.putText(page, "Companion - marqueurs de calibration / calibration markers", (int(15 * px), int(20 * px)),
                font, fs, 0, th, cv2.LINE_AA)
    cv2.putText(page, "Imprimer a 100 % (pas d'ajustement) / Print at 100 % (no fit to page)",
                (int(15 * px), int(28 * px)), font, fs * 0.8, 0, th, cv2.LINE_AA)
    names = ["0: haut-gauche / top-left", "1: haut-droite / top-right", "2: bas-droite / bottom-right",
             "3: bas-gauche / bottom-left"]
    for i in range(4):
        m = marker_image(i, side, border)
        # cut line around the paper square
        x = int(round((25 + (i % 2) * 95) * px))
        y = int(round((45 + (i // 2) * 80) * px))
        page[y:y + m.shape[0], x:x + m.shape[1]] = m
        cv2.rectangle(page, (x - 1, y - 1), (x + m.shape[1], y + m.shape[0]), 160, 1)
        cv2.putText(page, f"{names[i]}", (x, y + m.shape[0] + int(7 * px)), font, fs * 0.7, 0, th, cv2.LINE_AA)
        cv2.putText(page, f"{marker_mm:g} mm (DICT_4X4_50 id {i})", (x, y + m.shape[0] + int(13 * px)),
                    font, fs * 0.7, 0, th, cv2.LINE_AA)
    y = int(round(225 * px))
    x0, x1 = int(round(25 * px)), int(round(75 * px))
    cv2.rectangle(page, (x0, y), (x1, y + int(2 * px)), 0, -1)
    for k in range(6):
        xx = int(round((25 + 10 * k) * px))
        cv2.line(page, (xx, y - int(2 * px)), (xx, y + int(2 * px)), 0, th)
    cv2.putText(page, "50 mm: verifier a la regle / check with a ruler", (x0, y + int(10 * px)), font, fs * 0.8, 0, th,
                cv2.LINE_AA)
    cv2.putText(page, f"{dpi} dpi", (x0, y + int(18 * px)), font, fs * 0.7, 0, th, cv2.LINE_AA)
    return page


def _png_with_dpi(img: np.ndarray, dpi: int) -> bytes:
    ok, buf = cv2.imencode(".png", img)
    if not ok:  # pragma: no cover
        raise ValueError("PNG encoding failed")
    data = buf.tobytes()
    ppm = int(round(dpi / 0.0254))
    body = struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", len(body)) + b"pHYs" + body + struct.pack(">I", zlib.crc32(b"pHYs" + body) & 0xFFFFFFFF)
    ihdr_end = 8 + 25  # signature + IHDR chunk
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def _pdf(img: np.ndarray) -> bytes:
    """A one-page A4 PDF holding ``img`` stretched over the page (so at true size)."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:  # pragma: no cover
        raise ValueError("JPEG encoding failed")
    jpg = buf.tobytes()
    h, w = img.shape[:2]
    pw, ph = 595.276, 841.89
    content = f"q {pw:.3f} 0 0 {ph:.3f} 0 0 cm /Im0 Do Q".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.3f} {ph:.3f}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length {len(jpg)} >>\nstream\n".encode() + jpg + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + o + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_marker_sheet(path: Path, marker_mm: float = 20.0, dpi: int = 300) -> Path:
    """Write the sheet as ``.pdf`` (A4, true size) or ``.png`` (with its DPI recorded)."""
    path = Path(path)
    if marker_mm < 8 or marker_mm > 80:
        raise ValueError(f"marker size {marker_mm} mm is out of range (8-80 mm)")
    if dpi < 100 or dpi > 1200:
        raise ValueError(f"dpi {dpi} is out of range (100-1200)")
    page = marker_sheet(marker_mm, dpi=dpi)
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        data = _pdf(page)
    elif suffix == ".png":
        data = _png_with_dpi(page, dpi)
    else:
        raise ValueError(f"unsupported sheet format {path.suffix!r}: use .pdf or .png")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
