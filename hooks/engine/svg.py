"""A small hand-written SVG writer for the book's plots: line charts (with marked points) and stacked histograms.

Formatting only: it places numbers it is given and computes nothing about them. Colours are CSS
classes (docs/assets/stylesheets/plots.css maps them to variables that follow Material's light and
dark palettes); every text is `currentColor`. Each chart is an accessible image: role="img", a
<title> and a <desc> it is labelled by, and labelled axes with units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from hooks.engine.markdown import Markdown, escape_html
from hooks.engine.numbers import short

# The drawing is laid out in a 380 × H box that the page scales to its width: on a 360 px phone
# (about 330 px of content) a 15-unit font is still about 13 px, and on a desktop the figure stops
# growing at 440 px (plots.css), where the same font is about 17 px.
WIDTH = 380
FONT = 15
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_BOTTOM = 52, 14, 44
LEGEND_ROW = 20
SERIES_STYLES = 3  # plots.css defines .grpo-series-1 .. -3


@dataclass(frozen=True)
class Series:
    """One line of a chart: its legend label and its points; style picks colour and dash (1..3)."""

    label: str
    xs: Sequence[float]
    ys: Sequence[float]
    style: int


@dataclass(frozen=True)
class Axis:
    """An axis: its label (with unit), its range, and the tick values to mark; a signed quantity's ticks carry
    '+' on the positive side (an advantage: −2, 0, +2)."""

    label: str
    low: float
    high: float
    ticks: Sequence[float]
    signed: bool = False


@dataclass(frozen=True)
class Mark:
    """A point to mark on a line chart: a dot in a series' style, with a label beside it."""

    x: float
    y: float
    label: str
    style: int


@dataclass(frozen=True)
class Panel:
    """One histogram of a stack: a label, the bin edges and the height of each bin."""

    label: str
    edges: Sequence[float]
    heights: Sequence[float]
    style: int


def _num(value: float) -> str:
    """Coordinates to two decimals: exact enough on screen, short in the page."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, content: str, anchor: str = "middle", extra: str = "") -> str:
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="{anchor}" fill="currentColor"{extra}>'
        f"{escape_html(content)}</text>"
    )


def _open(figure_id: str, height: float, title: str, description: str) -> list[str]:
    return [
        f'<svg class="grpo-plot" id="{figure_id}" role="img" viewBox="0 0 {WIDTH} {_num(height)}" '
        f'aria-labelledby="{figure_id}-title {figure_id}-desc" font-size="{FONT}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{figure_id}-title">{escape_html(title)}</title>',
        f'<desc id="{figure_id}-desc">{escape_html(description)}</desc>',
    ]


def _check_style(style: int) -> None:
    if not 1 <= style <= SERIES_STYLES:
        raise ValueError(f"series style must be 1..{SERIES_STYLES}, got {style}")


def _legend(items: Sequence[tuple[str, int]], top: float) -> list[str]:
    """One row per item, a short stroke in the item's style and its label."""
    parts = []
    for row, (label, style) in enumerate(items):
        _check_style(style)
        y = top + row * LEGEND_ROW
        parts.append(
            f'<line class="grpo-series-{style}" x1="{MARGIN_LEFT}" y1="{_num(y)}" x2="{MARGIN_LEFT + 28}" '
            f'y2="{_num(y)}" stroke="currentColor" stroke-width="3"/>'
        )
        parts.append(_text(MARGIN_LEFT + 36, y + FONT * 0.35, label, anchor="start"))
    return parts


class _Frame:
    """Maps data to drawing coordinates inside a plot area, and draws its axes."""

    def __init__(self, x: Axis, y: Axis, top: float, bottom: float) -> None:
        if x.high <= x.low or y.high <= y.low:
            raise ValueError("an axis needs high > low")
        self.x, self.y, self.top, self.bottom = x, y, top, bottom
        self.left, self.right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT

    def px(self, value: float) -> float:
        return self.left + (value - self.x.low) / (self.x.high - self.x.low) * (self.right - self.left)

    def py(self, value: float) -> float:
        return self.bottom - (value - self.y.low) / (self.y.high - self.y.low) * (self.bottom - self.top)

    def grid_and_y_ticks(self) -> list[str]:
        parts = []
        for tick in self.y.ticks:
            y = self.py(tick)
            parts.append(
                f'<line class="grpo-grid" x1="{self.left}" y1="{_num(y)}" x2="{self.right}" y2="{_num(y)}" '
                'stroke="currentColor" stroke-opacity="0.15"/>'
            )
            parts.append(_text(self.left - 6, y + FONT * 0.35, short(tick, self.y.signed), anchor="end"))
        return parts

    def x_axis(self, labelled: bool = True) -> list[str]:
        parts = [
            f'<line class="grpo-axis" x1="{self.left}" y1="{_num(self.bottom)}" x2="{self.right}" '
            f'y2="{_num(self.bottom)}" stroke="currentColor"/>'
        ]
        for tick in self.x.ticks:
            x = self.px(tick)
            parts.append(
                f'<line class="grpo-axis" x1="{_num(x)}" y1="{_num(self.bottom)}" x2="{_num(x)}" '
                f'y2="{_num(self.bottom + 4)}" stroke="currentColor"/>'
            )
            parts.append(_text(x, self.bottom + 4 + FONT, short(tick, self.x.signed)))
        if labelled:
            parts.append(_text((self.left + self.right) / 2, self.bottom + 8 + 2 * FONT, self.x.label, "middle"))
        return parts

    def y_label(self) -> str:
        middle = (self.top + self.bottom) / 2
        return _text(14, middle, self.y.label, extra=f' transform="rotate(-90 14 {_num(middle)})"')


def line_chart(
    figure_id: str,
    title: str,
    description: str,
    x: Axis,
    y: Axis,
    series: Sequence[Series],
    reference: tuple[float, str] | None = None,
    marks: Sequence[Mark] = (),
    band: tuple[float, float, str] | None = None,
) -> str:
    """Lines over a shared x axis, a legend above them, an optional dashed horizontal reference line, marked
    points (each labelled above its dot), and an optional shaded band between two x values, labelled at its
    top. A NaN in a series' ys breaks its line."""
    legend_height = LEGEND_ROW * len(series) + 6
    top, plot_height = 12 + legend_height, 200
    bottom = top + plot_height
    frame = _Frame(x, y, top, bottom)
    parts = _open(figure_id, bottom + MARGIN_BOTTOM, title, description)
    parts += _legend([(s.label, s.style) for s in series], 12 + FONT * 0.5)
    parts += frame.grid_and_y_ticks()
    if band is not None:
        low, high, label = band
        bx0, bx1 = frame.px(low), frame.px(high)
        parts.append(
            f'<rect class="grpo-band" x="{_num(bx0)}" y="{_num(top)}" width="{_num(bx1 - bx0)}" '
            f'height="{_num(bottom - top)}" fill="currentColor" fill-opacity="0.08"/>'
        )
        parts.append(_text((bx0 + bx1) / 2, top + FONT, label, extra=' font-size="12"'))
    if reference is not None:
        level, label = reference
        ry = frame.py(level)
        parts.append(
            f'<line class="grpo-reference" x1="{frame.left}" y1="{_num(ry)}" x2="{frame.right}" y2="{_num(ry)}" '
            'stroke="currentColor" stroke-dasharray="2 4" stroke-opacity="0.8"/>'
        )
        parts.append(_text(frame.right - 2, ry + FONT + 2, label, anchor="end", extra=' font-size="12"'))
    for line in series:
        _check_style(line.style)
        if len(line.xs) != len(line.ys) or not line.xs:
            raise ValueError(f"series {line.label!r} needs as many x as y values, and at least one")
        for segment in _segments(line.xs, line.ys):
            points = " ".join(f"{_num(frame.px(a))},{_num(frame.py(b))}" for a, b in segment)
            parts.append(
                f'<polyline class="grpo-series-{line.style}" points="{points}" fill="none" stroke="currentColor" '
                'stroke-width="2" stroke-linejoin="round"/>'
            )
    for mark in marks:
        parts += _mark(frame, mark)
    parts += frame.x_axis()
    parts.append(frame.y_label())
    parts.append("</svg>")
    return "".join(parts)


def _mark(frame: _Frame, mark: Mark) -> list[str]:
    """A dot and, above it, its label: centred, or starting (ending) at the dot near the left (right) edge."""
    _check_style(mark.style)
    x, y = frame.px(mark.x), frame.py(mark.y)
    quarter = (frame.right - frame.left) / 4
    if x < frame.left + quarter:
        label_x, anchor = x + 6, "start"
    elif x > frame.right - quarter:
        label_x, anchor = x - 6, "end"
    else:
        label_x, anchor = x, "middle"
    return [
        f'<circle class="grpo-dot-{mark.style}" cx="{_num(x)}" cy="{_num(y)}" r="4.5" fill="currentColor"/>',
        _text(label_x, y - 12, mark.label, anchor=anchor, extra=' font-size="13"'),
    ]


def _segments(xs: Sequence[float], ys: Sequence[float]) -> list[list[tuple[float, float]]]:
    """The runs of points between NaNs in ys: each is drawn as its own line."""
    segments: list[list[tuple[float, float]]] = [[]]
    for a, b in zip(xs, ys, strict=True):
        if math.isnan(b):
            segments.append([])
        else:
            segments[-1].append((a, b))
    return [segment for segment in segments if segment]


def histogram_stack(
    figure_id: str,
    title: str,
    description: str,
    x: Axis,
    y_label: str,
    panels: Sequence[Panel],
    marker: tuple[float, str] | None = None,
) -> str:
    """One histogram per panel, stacked over a shared x axis; each panel scaled to its own tallest bin, its
    y axis labelled with round values up to it (0 and 50 under a bar of 52.19: a label is a value, never a
    rounded one). An optional marker draws a dashed vertical line at one x through every panel, labelled in
    the first."""
    panel_height, gap = 80, 30
    top = 10
    total = top + len(panels) * (panel_height + gap) - gap
    parts = _open(figure_id, total + MARGIN_BOTTOM, title, description)
    for index, panel in enumerate(panels):
        _check_style(panel.style)
        if len(panel.edges) != len(panel.heights) + 1:
            raise ValueError(f"panel {panel.label!r} needs one more edge than heights")
        panel_top = top + index * (panel_height + gap) + FONT + 4
        panel_bottom = top + index * (panel_height + gap) + panel_height
        tallest = max(panel.heights) if max(panel.heights, default=0) > 0 else 1.0
        y = Axis(y_label, 0.0, tallest, ticks(0.0, tallest, 2))
        frame = _Frame(x, y, panel_top, panel_bottom)
        parts.append(_text(frame.left, panel_top - 6, panel.label, anchor="start", extra=' font-weight="bold"'))
        parts += frame.grid_and_y_ticks()
        for low, high, height in zip(panel.edges[:-1], panel.edges[1:], panel.heights, strict=True):
            if height <= 0:
                continue
            x0, x1 = frame.px(low), frame.px(high)
            y_top = frame.py(height)
            parts.append(
                f'<rect class="grpo-bar-{panel.style}" x="{_num(x0 + 0.5)}" y="{_num(y_top)}" '
                f'width="{_num(max(x1 - x0 - 1, 0.5))}" height="{_num(panel_bottom - y_top)}" fill="currentColor"/>'
            )
        if marker is not None:
            parts += _vertical_marker(frame, marker, labelled=index == 0)
        parts += frame.x_axis(labelled=index == len(panels) - 1)
    middle = (top + total) / 2
    parts.append(_text(14, middle, y_label, extra=f' transform="rotate(-90 14 {_num(middle)})"'))
    parts.append("</svg>")
    return "".join(parts)


def _vertical_marker(frame: _Frame, marker: tuple[float, str], labelled: bool) -> list[str]:
    position, label = marker
    x = frame.px(position)
    parts = [
        f'<line class="grpo-reference" x1="{_num(x)}" y1="{_num(frame.top)}" x2="{_num(x)}" '
        f'y2="{_num(frame.bottom)}" stroke="currentColor" stroke-dasharray="4 3" stroke-width="1.5"/>'
    ]
    if labelled:
        left_half = x < (frame.left + frame.right) / 2
        parts.append(
            _text(
                x + 5 if left_half else x - 5,
                frame.top + FONT,
                label,
                "start" if left_half else "end",
                ' font-size="13"',
            )
        )
    return parts


GAP = math.nan  # a point that breaks a line: the line ends before it and starts again after it


def whole_range(low: float, high: float) -> tuple[int, int]:
    """An axis's ends on the whole numbers around [low, high]."""
    return math.floor(low), math.ceil(high)


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values from low to high, about `count` of them (steps of 1, 2 or 5 times a power of ten)."""
    if high <= low:
        raise ValueError("ticks need high > low")
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9) * step
    values, value = [], first
    while value <= high + 1e-9 * step:
        values.append(round(value, 10))
        value += step
    return values


def figure(svg: str, caption: str) -> Markdown:
    """The chart in a <figure> with its caption (text), as one HTML block (no blank line, so Markdown leaves it
    whole)."""
    return Markdown(f'<figure class="grpo-figure">{svg}<figcaption>{escape_html(caption)}</figcaption></figure>')
