#!/usr/bin/python3
"""Draws one or more series as an SVG line chart, with the standard library only (no plotting package is needed
on a machine that runs the benchmarks).

    bench/plot.py OUT.svg "TITLE" "X LABEL" "Y LABEL" "SERIES NAME=x1:y1,x2:y2,..." ["SERIES NAME=..." ...]

The x values are placed at even steps in the order given (they are labels: replica counts, job counts)."""
import sys
from xml.sax.saxutils import escape

COLOURS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df"]
W, H, LEFT, RIGHT, TOP, BOTTOM = 720, 360, 70, 230, 40, 50


def main(argv):
    if len(argv) < 6:
        sys.exit(__doc__)
    out, title, xlabel, ylabel = argv[1:5]
    series = []
    for arg in argv[5:]:
        name, points = arg.split("=", 1)
        series.append((name, [(x, float(y)) for x, y in (p.split(":") for p in points.split(","))]))
    xs = []
    for _, points in series:
        for x, _ in points:
            if x not in xs:
                xs.append(x)
    top = max(y for _, points in series for _, y in points)
    step = nice_step(top / 5)
    ymax = step * (int(top / step) + 1)
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def px(x):
        return LEFT + (plot_w * (xs.index(x) + 0.5) / len(xs))

    def py(y):
        return TOP + plot_h * (1 - y / ymax)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" '
             f'font-size="12"><rect width="{W}" height="{H}" fill="white"/>',
             f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>']
    y = 0.0
    while y <= ymax + 1e-9:
        parts.append(f'<line x1="{LEFT}" y1="{py(y):.1f}" x2="{LEFT + plot_w}" y2="{py(y):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:,.0f}</text>')
        y += step
    for x in xs:
        parts.append(f'<text x="{px(x):.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">{escape(x)}</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2}" y="{H - 10}" text-anchor="middle">{escape(xlabel)}</text>')
    parts.append(f'<text transform="translate(16 {TOP + plot_h / 2}) rotate(-90)" text-anchor="middle">'
                 f'{escape(ylabel)}</text>')
    for i, (name, points) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, v in points:
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(v):.1f}" r="3.5" fill="{colour}"/>')
            parts.append(f'<text x="{px(x) + 6:.1f}" y="{py(v) - 6:.1f}" fill="{colour}">{v:,.0f}</text>')
        ly = TOP + 10 + 20 * i
        parts.append(f'<line x1="{W - RIGHT + 15}" y1="{ly}" x2="{W - RIGHT + 35}" y2="{ly}" stroke="{colour}" '
                     f'stroke-width="2"/><text x="{W - RIGHT + 40}" y="{ly + 4}">{escape(name)}</text>')
    parts.append("</svg>")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def nice_step(raw):
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


if __name__ == "__main__":
    main(sys.argv)
