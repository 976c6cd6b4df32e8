#!/usr/bin/env python3
"""Draws benches/scaling.svg from divan's output saved in benches/results/.

Standard library only. Usage, from the repository root:

    cargo bench --bench views > benches/results/views.txt
    cargo bench --bench merge > benches/results/merge.txt
    python3 benches/plot.py

Three log-log panels of median time against the work: the merge decision
against the second view's elements (with the brute-force check beside it),
movement-op chains against their length, and offset streams against their
elements (with a plain `i*stride` fill of the same length).
"""

import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
UNITS = {"ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
TIME = re.compile(r"([0-9.]+)\s*(ns|µs|us|ms|s)\b")


def parse(path):
    """{(group, arg): median ns} from a divan report (tree of benches)."""
    medians = {}
    stack = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            at = line.find("─ ")
            if at < 0:
                continue
            depth = at // 3
            rest = line[at + 2 :]
            name = rest.split("│")[0].strip()
            times = TIME.findall(rest)
            name = TIME.sub("", name).strip()
            stack[depth:] = [name]
            if len(times) >= 3:
                value, unit = times[2]  # fastest, slowest, median, mean
                medians[tuple(stack)] = float(value) * UNITS[unit]
    return medians


def series(medians, group, x_of):
    """Sorted (x, median) points of one bench's arguments."""
    points = []
    for key, value in medians.items():
        if len(key) == 2 and key[0] == group:
            points.append((x_of(key[1]), value))
    return sorted(points)


COLOURS = ["#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6c4f9c"]


def panel(out, box, title, xlabel, lines):
    """One log-log panel in `box` = (x, y, w, h); `lines` = [(label, points)]."""
    x0, y0, w, h = box
    xs = [p[0] for _, pts in lines for p in pts]
    ys = [p[1] for _, pts in lines for p in pts]
    lx = (math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs))))
    ly = (math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys))))
    if lx[0] == lx[1]:
        lx = (lx[0], lx[0] + 1)
    if ly[0] == ly[1]:
        ly = (ly[0], ly[0] + 1)

    def px(x):
        return x0 + w * (math.log10(x) - lx[0]) / (lx[1] - lx[0])

    def py(y):
        return y0 + h - h * (math.log10(y) - ly[0]) / (ly[1] - ly[0])

    out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#444"/>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 - 12}" text-anchor="middle" font-weight="bold">{title}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 36}" text-anchor="middle">{xlabel}</text>')
    for e in range(lx[0], lx[1] + 1):
        x = px(10**e)
        out.append(f'<line x1="{x}" y1="{y0 + h}" x2="{x}" y2="{y0}" stroke="#ddd"/>')
        out.append(f'<text x="{x}" y="{y0 + h + 16}" text-anchor="middle" font-size="11">1e{e}</text>')
    names = {e: f"{10 ** (e % 3)} {unit}" for e, unit in
             [(k, ["ns", "µs", "ms", "s"][k // 3]) for k in range(12)]}
    for e in range(ly[0], ly[1] + 1):
        y = py(10**e)
        out.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + w}" y2="{y}" stroke="#ddd"/>')
        label = names.get(e, f"1e{e} ns")
        out.append(f'<text x="{x0 - 6}" y="{y + 4}" text-anchor="end" font-size="11">{label}</text>')
    for k, (label, pts) in enumerate(lines):
        colour = COLOURS[k % len(COLOURS)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
        ly_text = y0 + 16 + 16 * k
        out.append(f'<line x1="{x0 + 10}" y1="{ly_text - 4}" x2="{x0 + 28}" y2="{ly_text - 4}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{x0 + 32}" y="{ly_text}" font-size="11">{label}</text>')


def main():
    views = parse(os.path.join(HERE, "results", "views.txt"))
    merge = parse(os.path.join(HERE, "results", "merge.txt"))
    two_to = lambda a: 2 ** int(a)  # noqa: E731
    square = lambda a: int(a) ** 2  # noqa: E731
    window = lambda a: 9 * int(a) ** 2  # noqa: E731
    panels = [
        (
            "Merge decision vs elements",
            "elements of the second view",
            [
                ("decision, mergeable", series(merge, "mergeable_decide", two_to)),
                ("decision, not mergeable", series(merge, "non_mergeable_decide", two_to)),
                ("brute force, mergeable", series(merge, "mergeable_brute_force", two_to)),
                ("brute force, not mergeable", series(merge, "non_mergeable_brute_force", two_to)),
            ],
        ),
        (
            "Movement-op chains vs length",
            "ops in the chain",
            [
                ("one view", series(views, "chain_length_one_view", int)),
                ("two views (refused pair)", series(views, "chain_length_two_views", int)),
            ],
        ),
        (
            "Offset streams vs elements",
            "elements filled",
            [
                ("flattened transpose", series(views, "stream_size_transpose", square)),
                ("padded 3x3 window", series(views, "stream_size_conv", window)),
                ("plain i*stride fill", series(views, "stream_size_plain", square)),
            ],
        ),
    ]
    width, height = 1260, 420
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for k, (title, xlabel, lines) in enumerate(panels):
        lines = [(label, pts) for label, pts in lines if pts]
        if lines:
            panel(out, (80 + 410 * k, 50, 320, 300), title, xlabel, lines)
    out.append("</svg>")
    with open(os.path.join(HERE, "scaling.svg"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
