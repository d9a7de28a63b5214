"""A die's histogram as a small SVG (no library, no script: an image the tablet shows
with ``<img>`` and ``companion stats --svg`` writes to a file).

>>> svg = histogram_svg(["1", "2"], {"camera": [3, 1], "hand": [1, 0]}, [2.5, 2.5], "D4")
>>> svg.startswith("<svg") and svg.count("<rect") == 3 and "D4" in svg
True
"""

from __future__ import annotations

from typing import Mapping, Sequence
from xml.sax.saxutils import escape

__all__ = ["histogram_svg", "COLOURS"]

COLOURS = {"camera": "#2e7d32", "hand": "#6a3fa0"}


def histogram_svg(faces: Sequence[str], counts: Mapping[str, Sequence[int]], expected: Sequence[float] | None,
                  title: str, legend: Mapping[str, str] | None = None, width: int = 560, height: int = 260) -> str:
    """Stacked bars (camera reads under hand entries) per face, the expected count of a
    fair die as a dashed line, face names under the bars."""
    pad_l, pad_r, pad_t, pad_b = 36, 10, 28, 44
    n = max(1, len(faces))
    totals = [sum(counts.get(g, [0] * n)[i] for g in counts) for i in range(n)]
    top = max([1.0, *totals, *(expected or [])])
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    bw = plot_w / n

    def y(v: float) -> float:
        return pad_t + plot_h * (1 - v / top)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
             f' role="img" aria-label="{escape(title)}" font-family="sans-serif" font-size="13">',
             f'<text x="{pad_l}" y="18" font-weight="bold">{escape(title)}</text>',
             f'<line x1="{pad_l}" y1="{pad_t + plot_h}" x2="{width - pad_r}" y2="{pad_t + plot_h}" stroke="#777"/>',
             f'<text x="{pad_l - 6}" y="{pad_t + 4}" text-anchor="end">{int(top) if top == int(top) else round(top, 1)}</text>',
             f'<text x="{pad_l - 6}" y="{pad_t + plot_h}" text-anchor="end">0</text>']
    for i, face in enumerate(faces):
        x = pad_l + i * bw + bw * 0.15
        base = 0.0
        for g in counts:
            v = counts[g][i] if i < len(counts[g]) else 0
            if v:
                parts.append(f'<rect x="{x:.1f}" y="{y(base + v):.1f}" width="{bw * 0.7:.1f}" height="{y(base) - y(base + v):.1f}"'
                             f' fill="{COLOURS.get(g, "#8c2f1b")}"><title>{escape(face)} : {v}</title></rect>')
            base += v
        parts.append(f'<text x="{x + bw * 0.35:.1f}" y="{pad_t + plot_h + 16}" text-anchor="middle">{escape(face[:12])}</text>')
        parts.append(f'<text x="{x + bw * 0.35:.1f}" y="{y(base) - 4:.1f}" text-anchor="middle" fill="#444">{int(base)}</text>')
        if expected:
            ey = y(expected[i])
            parts.append(f'<line x1="{x - bw * 0.1:.1f}" y1="{ey:.1f}" x2="{x + bw * 0.8:.1f}" y2="{ey:.1f}" stroke="#b3261e"'
                         f' stroke-width="2" stroke-dasharray="5 3"/>')
    lx = pad_l
    for g, label in (legend or {}).items():
        colour = COLOURS.get(g, "#b3261e")
        if g == "expected":
            parts.append(f'<line x1="{lx}" y1="{height - 9}" x2="{lx + 16}" y2="{height - 9}" stroke="{colour}" stroke-width="2" stroke-dasharray="5 3"/>')
        else:
            parts.append(f'<rect x="{lx}" y="{height - 16}" width="14" height="14" fill="{colour}"/>')
        parts.append(f'<text x="{lx + 20}" y="{height - 4}">{escape(label)}</text>')
        lx += 30 + 8 * len(label)
    parts.append("</svg>")
    return "".join(parts)
