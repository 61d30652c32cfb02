"""The hand-written SVG writer (hooks/engine/svg.py): valid XML, accessible names, labelled axes, data where it
belongs."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from hooks.engine import svg

NS = {"s": "http://www.w3.org/2000/svg"}


def _chart() -> str:
    return svg.line_chart(
        "demo",
        "Reward <per> step & more",
        "Two lines that rise.",
        svg.Axis("training step (updates)", 0, 10, svg.ticks(0, 10)),
        svg.Axis("mean reward (0 to 1)", 0, 1, svg.ticks(0, 1, 4)),
        [svg.Series("first", [0, 5, 10], [0.0, 0.5, 1.0], 1), svg.Series("second", [0, 10], [1.0, 0.0], 2)],
        reference=(0.9, "threshold 0.9"),
    )


def test_line_chart_is_valid_xml_with_an_accessible_name() -> None:
    root = ET.fromstring(_chart())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img"
    title, desc = root.find("s:title", NS), root.find("s:desc", NS)
    assert title is not None and desc is not None
    assert title.text == "Reward <per> step & more"  # escaped in the markup, intact for a screen reader
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"


def test_line_chart_labels_both_axes_and_the_legend() -> None:
    texts = [t.text for t in ET.fromstring(_chart()).iter("{http://www.w3.org/2000/svg}text")]
    for label in ("training step (updates)", "mean reward (0 to 1)", "first", "second", "threshold 0.9"):
        assert label in texts
    for tick in ("0", "2", "10", "0.5", "1"):
        assert tick in texts


def test_line_chart_maps_data_into_the_plot_area() -> None:
    root = ET.fromstring(_chart())
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    lines = root.findall("s:polyline", NS)
    assert [line.get("class") for line in lines] == ["grpo-series-1", "grpo-series-2"]
    first = [tuple(map(float, p.split(","))) for p in lines[0].get("points", "").split()]
    assert len(first) == 3
    xs, ys = [p[0] for p in first], [p[1] for p in first]
    assert xs == sorted(xs) and ys == sorted(ys, reverse=True)  # rising data: y grows upward on screen
    assert all(0 < x < width for x in xs) and all(0 < y < height for y in ys)
    assert xs[1] == pytest.approx((xs[0] + xs[2]) / 2)  # the middle point sits halfway, the axis is linear


def test_colours_come_from_css_not_from_fixed_values() -> None:
    chart = _chart()
    assert "#" not in chart.replace('id="', "")  # no hex colour anywhere
    assert 'stroke="currentColor"' in chart


def test_histogram_stack() -> None:
    chart = svg.histogram_stack(
        "hist",
        "Histograms",
        "Two panels.",
        svg.Axis("advantage A (unitless)", -1, 1, svg.ticks(-1, 1, 4)),
        "share (%)",
        [svg.Panel("one", [-1, 0, 1], [25.0, 75.0], 1), svg.Panel("two", [-1, 0, 1], [0.0, 100.0], 3)],
    )
    root = ET.fromstring(chart)
    rects = root.findall("s:rect", NS)
    assert len(rects) == 3  # a bin of height 0 draws nothing
    assert {r.get("class") for r in rects} == {"grpo-bar-1", "grpo-bar-3"}
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"one", "two", "advantage A (unitless)", "share (%)"} <= set(texts)
    # Each panel's y axis: round values up to its tallest bar (75: 0 and 50; 100: 0, 50 and 100).
    y_labels = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("text-anchor") == "end"]
    assert y_labels == ["0", "50", "0", "50", "100"]


def test_a_histograms_y_labels_are_values_not_a_rounded_tallest_bar() -> None:
    chart = svg.histogram_stack(
        "hist",
        "Histograms",
        "One panel.",
        svg.Axis("x", 0, 1, [0, 1]),
        "share (%)",
        [svg.Panel("one", [0, 1], [52.19], 1)],
    )
    root = ET.fromstring(chart)
    labels = {t.text: float(t.get("y", "nan")) for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert "52" not in labels and {"0", "50"} <= set(labels)  # it read "52", for a bar of 52.19
    bar = root.find("s:rect", NS)
    assert bar is not None
    top, bottom = float(bar.get("y", "nan")), float(bar.get("y", "nan")) + float(bar.get("height", "nan"))
    # 50 sits at 50/52.19 of the bar's height (the label's baseline is FONT * 0.35 below the value's line).
    assert labels["50"] - svg.FONT * 0.35 == pytest.approx(bottom - (bottom - top) * 50 / 52.19, abs=0.01)


def test_tick_labels_write_the_books_minus_and_a_plus_on_a_signed_axis() -> None:
    def labels(signed: bool) -> list[str | None]:
        axis = svg.Axis("advantage A (unitless)", -2, 2, svg.ticks(-2, 2, 4), signed=signed)
        chart = svg.histogram_stack(
            "hist", "Histograms", "One panel.", axis, "share (%)", [svg.Panel("one", [-2, 2], [1.0], 1)]
        )
        return [t.text for t in ET.fromstring(chart).iter("{http://www.w3.org/2000/svg}text")]

    assert [t for t in labels(signed=True) if t and t[-1].isdigit()][-5:] == ["−2", "−1", "0", "+1", "+2"]
    assert [t for t in labels(signed=False) if t and t[-1].isdigit()][-5:] == ["−2", "−1", "0", "1", "2"]


@pytest.mark.parametrize(
    ("low", "high", "count", "expected"),
    [
        (0, 60, 5, [0, 20, 40, 60]),
        (0, 2, 4, [0, 0.5, 1, 1.5, 2]),
        (-3, 3, 6, [-3, -2, -1, 0, 1, 2, 3]),
        (0, 100, 4, [0, 50, 100]),
    ],
)
def test_ticks_are_round(low: float, high: float, count: int, expected: list[float]) -> None:
    assert svg.ticks(low, high, count) == expected


def test_bad_input_is_an_error() -> None:
    axis = svg.Axis("x", 0, 1, [0, 1])
    with pytest.raises(ValueError, match="style"):
        svg.line_chart("a", "t", "d", axis, axis, [svg.Series("s", [0], [0], 9)])
    with pytest.raises(ValueError, match="as many"):
        svg.line_chart("a", "t", "d", axis, axis, [svg.Series("s", [0, 1], [0], 1)])
    with pytest.raises(ValueError, match="high > low"):
        svg.line_chart("a", "t", "d", svg.Axis("x", 1, 1, []), axis, [svg.Series("s", [0], [0], 1)])


def test_figure_is_one_html_block_with_a_caption() -> None:
    html = svg.figure(_chart(), "A caption.")
    assert "\n\n" not in html  # a blank line would end the HTML block and let Markdown into the SVG
    root = ET.fromstring(html)
    assert root.tag == "figure"
    caption = root.find("figcaption")
    assert caption is not None and caption.text == "A caption."


def test_marks_sit_on_their_points_with_labels_inside_the_plot() -> None:
    axis = svg.Axis("b (reward)", 0, 2, svg.ticks(0, 2, 4))
    chart = svg.line_chart(
        "marks",
        "t",
        "d",
        axis,
        svg.Axis("v (reward²)", 0, 2, svg.ticks(0, 2, 4)),
        [svg.Series("curve", [0, 1, 2], [2, 0, 2], 1)],
        marks=[svg.Mark(0, 2, "left end", 2), svg.Mark(1, 0, "middle", 1), svg.Mark(2, 2, "right end", 3)],
    )
    root = ET.fromstring(chart)
    dots = root.findall("s:circle", NS)
    assert [d.get("class") for d in dots] == ["grpo-dot-2", "grpo-dot-1", "grpo-dot-3"]
    points = [tuple(map(float, p.split(","))) for p in root.findall("s:polyline", NS)[0].get("points", "").split()]
    assert (float(dots[0].get("cx", "")), float(dots[0].get("cy", ""))) == points[0]  # the dot is on the curve's end
    labels = {t.text: t.get("text-anchor") for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert labels == {**labels, "left end": "start", "middle": "middle", "right end": "end"}  # none leaves the plot


def test_histogram_marker_crosses_every_panel_and_is_labelled_once() -> None:
    chart = svg.histogram_stack(
        "marked",
        "t",
        "d",
        svg.Axis("x (unit)", -1, 1, svg.ticks(-1, 1, 4)),
        "share (%)",
        [svg.Panel("one", [-1, 0, 1], [25.0, 75.0], 1), svg.Panel("two", [-1, 0, 1], [50.0, 50.0], 3)],
        marker=(0.5, "true 0.5"),
    )
    root = ET.fromstring(chart)
    markers = [line for line in root.findall("s:line", NS) if line.get("stroke-dasharray") == "4 3"]
    assert len(markers) == 2 and {m.get("x1") for m in markers} == {m.get("x2") for m in markers}
    assert len({m.get("x1") for m in markers}) == 1
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("true 0.5") == 1


def test_a_gap_breaks_a_line_into_two() -> None:
    axis = svg.Axis("x (unit)", 0, 4, svg.ticks(0, 4))
    chart = svg.line_chart(
        "gap", "t", "d", axis, axis, [svg.Series("broken", [0, 1, svg.GAP, 3, 4], [0, 1, svg.GAP, 3, 4], 1)]
    )
    lines = ET.fromstring(chart).findall("s:polyline", NS)
    assert [len(line.get("points", "").split()) for line in lines] == [2, 2]
    assert "nan" not in chart


def test_a_band_shades_the_x_range_it_is_given() -> None:
    chart = svg.line_chart(
        "band",
        "t",
        "d",
        svg.Axis("ratio (unitless)", 0, 2, svg.ticks(0, 2, 4)),
        svg.Axis("L (unit)", 0, 1, svg.ticks(0, 1)),
        [svg.Series("flat", [0, 2], [0.5, 0.5], 1)],
        band=(0.8, 1.2, "the clip range"),
    )
    root = ET.fromstring(chart)
    band = next(rect for rect in root.findall("s:rect", NS) if rect.get("class") == "grpo-band")
    line = root.findall("s:polyline", NS)[0]
    (x0, _), (x2, _) = (tuple(map(float, p.split(","))) for p in line.get("points", "").split())
    # the band starts 0.4 of the way along the axis and is 0.2 of it wide
    assert float(band.get("x", "")) == pytest.approx(x0 + 0.4 * (x2 - x0))
    assert float(band.get("width", "")) == pytest.approx(0.2 * (x2 - x0))
    assert "the clip range" in [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize(("low", "high", "expected"), [(-2.0, 4.0, (-2, 4)), (-1.2, 0.3, (-2, 1)), (0.0, 0.5, (0, 1))])
def test_whole_range_rounds_outward(low: float, high: float, expected: tuple[int, int]) -> None:
    assert svg.whole_range(low, high) == expected
