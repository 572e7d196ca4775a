"""Charts for the HTML report, drawn with matplotlib and returned as inline SVG text.

The SVG is self-contained (no fonts, images or links outside the document), its text stays
text (``svg.fonttype = "none"``: selectable, searchable, small), and the same input gives the
same bytes (fixed ``svg.hashsalt``, no date metadata).
"""

from __future__ import annotations

import io
import re
from typing import Any, Sequence

from mrclens.artifacts.results import AblationResult, CategoryResult
from mrclens.categories import colour_of, known_direction


def _svg_text(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]  # drop the XML declaration and DOCTYPE (it names a w3.org URL)
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)  # RDF boilerplate with more URLs
    # scale with the page: keep the viewBox, let CSS set the size
    svg = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 width="100%"', svg, count=1)
    return svg.strip()


def _rc():
    """The matplotlib settings of every chart: text kept as text, a fixed hash salt (same bytes), no top/right spines."""
    return {"svg.fonttype": "none", "svg.hashsalt": "mrclens", "font.size": 10, "font.family": "sans-serif",
            "axes.spines.top": False, "axes.spines.right": False}


def _finished_svg(fig) -> str:
    """Lay ``fig`` out, return it as SVG text (:func:`_svg_text`) and close it, also when that fails."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    try:
        return _svg_text(fig)
    finally:
        plt.close(fig)


def _inputs_legend(ax, **options) -> None:
    """The legend of the compared inputs, their names drawn as typed (never as mathtext); ``options`` go to ``ax.legend``."""
    for text in ax.legend(fontsize=8, frameon=False, **options).get_texts():
        text.set_parse_math(False)


def drop_chart_svg(ablations: Sequence[AblationResult], categories: Sequence[CategoryResult] = (),
                   metric: str = "F1") -> str:
    """A bar chart of the F1 drop (``metric``: ``"accuracy"`` for multiple-choice results) per ablation, grouped by bias category, with CI whiskers (the results' confidence level).

    Bars are the drop over all items (``f1_drop``, percentage points) with whiskers from
    ``ci_low`` to ``ci_high``, labelled with the ablation id (the names are in the report's table);
    bars of ``small_drop`` ablations (a *small* drop is the bias) are hatched, controls faded; a diamond marks the drop over changed items only
    (``changed_only.f1_drop``) when present; a dashed line across each group marks the
    category's aggregate drop (``categories[].f1_drop``). Ablations with ``evaluated`` false or
    no ``f1_drop`` are left out of the chart (the table says why).

    Args:
        ablations: the results' ablations (:attr:`mrclens.artifacts.results.Results.ablations`).
        categories: the results' categories (:attr:`mrclens.artifacts.results.Results.categories`).

    Returns:
        the ``<svg …>…</svg>`` element as text, or ``""`` when no ablation has a drop to draw.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    rows = [a for a in ablations if a.evaluated and isinstance(a.f1_drop, (int, float))]
    if not rows:
        return ""
    order: list[str] = []
    for a in rows:
        if a.category not in order:
            order.append(a.category)
    colours = {cat: colour_of(str(cat)) for cat in order}  # one colour per category on every surface
    cat_drop = {c.category: c.f1_drop for c in categories}

    with matplotlib.rc_context(_rc()):
        fig, ax = plt.subplots(figsize=(10.0, 3.4))
        x = 0.0
        ticks, labels = [], []
        seen_changed = seen_small = False
        for cat in order:
            group = [a for a in rows if a.category == cat]
            xs = []
            for a in group:
                drop = float(a.f1_drop)
                lo, hi = a.ci_low, a.ci_high
                signal = known_direction(a.bias_signal)
                small = signal is not None and signal.removes_information
                control = bool(a.control_of) or (signal is not None and not signal.signals)
                ax.bar(x, drop, width=0.7, color=colours[cat], alpha=0.4 if control else 0.85,
                       hatch="///" if small else None, edgecolor="white" if small else None,
                       label=None)
                seen_small = seen_small or small
                if isinstance(lo, (int, float)) and isinstance(hi, (int, float)):
                    ax.errorbar(x, drop, yerr=[[max(0.0, drop - lo)], [max(0.0, hi - drop)]], fmt="none",
                                ecolor="#222222", elinewidth=1.2, capsize=4)
                changed = a.changed_only.f1_drop if a.changed_only is not None else None
                if isinstance(changed, (int, float)):
                    ax.plot([x], [changed], marker="D", color="white", markeredgecolor="#222222", markersize=5,
                            linestyle="none", label="changed items only" if not seen_changed else None)
                    seen_changed = True
                ticks.append(x)
                labels.append(str(a.id))  # ids only: the names are in the table (they overlapped here)
                xs.append(x)
                x += 1.0
            agg = cat_drop.get(cat)
            if isinstance(agg, (int, float)) and xs:
                ax.hlines(agg, xs[0] - 0.45, xs[-1] + 0.45, colors=colours[cat], linestyles="dashed", linewidth=1.5)
            ax.text((xs[0] + xs[-1]) / 2, 1.02, str(cat), transform=ax.get_xaxis_transform(), ha="center",
                    va="bottom", color=colours[cat], fontweight="bold", parse_math=False)
            x += 0.6
        ax.axhline(0, color="#444444", linewidth=0.8)
        ax.set_xticks(ticks)
        ax.set_xticklabels(labels, fontsize=9, parse_math=False)
        ax.set_ylabel(f"{metric} drop (percentage points)")
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        if seen_small:
            ax.bar([ticks[0]], [0.0], width=0.0, color="#888888", hatch="///", edgecolor="white",
                   label="a small drop is the bias")
        if seen_changed or seen_small:
            ax.legend(loc="upper right", fontsize=8, frameon=False)
        return _finished_svg(fig)


#: One colour per compared input (Okabe–Ito, colour-blind-safe), in input order; more inputs cycle.
INPUT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]


def distribution_chart_svg(series: Sequence[dict[str, Any]], xlabel: str) -> str:
    """Overlaid histograms (``mrclens compare``): per input, the percentage of its questions in each bin, as a step line.

    Args:
        series: ``[{"input", "edges", "counts"}]`` (a :class:`mrclens.artifacts.comparison.DistributionSeries`
            as a dict); bins of width 1 from 0 (:func:`mrclens.stats.summary.integer_bins`), the last
            holding every larger value (labelled ``≥``).
        xlabel: the x-axis label (the figure and its unit).

    Returns:
        the ``<svg …>`` element as text, or ``""`` when there is no series with items.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    rows = [s for s in series if sum(s.get("counts") or []) > 0]
    if not rows:
        return ""
    with matplotlib.rc_context(_rc()):
        fig, ax = plt.subplots(figsize=(4.2, 2.8))
        upper = 0.0
        for k, s in enumerate(rows):
            edges, counts = s["edges"], s["counts"]
            total = float(sum(counts))
            pct = [100.0 * c / total for c in counts]
            # trim empty bins at the top so the interesting range fills the plot
            last = max((i for i, c in enumerate(counts) if c), default=0)
            upper = max(upper, edges[min(last + 1, len(edges) - 1)])
            ax.step(edges[:-1], pct, where="post", color=INPUT_COLOURS[k % len(INPUT_COLOURS)], linewidth=1.8,
                    label=str(s["input"]))
        ax.set_xlim(0, max(upper, 1.0))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("% of questions")
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        _inputs_legend(ax)
        return _finished_svg(fig)


def grouped_bars_svg(labels: Sequence[str], series: Sequence[dict[str, Any]], ylabel: str, *,
                     width: float = 10.0) -> str:
    """Bars side by side per label, one colour per input, with interval whiskers (``mrclens compare``).

    Args:
        labels: the x-axis groups (question types, ablation ids …).
        series: per input ``{"input", "values", "lows", "highs"}``, lists parallel to ``labels``
            (``None`` where the input has no value: no bar).
        ylabel: the y-axis label.

    Returns:
        the ``<svg …>`` element as text, or ``""`` when no bar has a value.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    if not labels or not any(isinstance(v, (int, float)) for s in series for v in s["values"]):
        return ""
    k = max(len(series), 1)
    bar = 0.8 / k
    with matplotlib.rc_context(_rc()):
        fig, ax = plt.subplots(figsize=(width, 3.0))
        for j, s in enumerate(series):
            colour = INPUT_COLOURS[j % len(INPUT_COLOURS)]
            xs, ys, err_lo, err_hi = [], [], [], []
            for i, v in enumerate(s["values"]):
                if not isinstance(v, (int, float)):
                    continue
                x = i - 0.4 + bar * (j + 0.5)
                xs.append(x)
                ys.append(v)
                lo, hi = s["lows"][i], s["highs"][i]
                err_lo.append(max(0.0, v - lo) if isinstance(lo, (int, float)) else 0.0)
                err_hi.append(max(0.0, hi - v) if isinstance(hi, (int, float)) else 0.0)
            ax.bar(xs, ys, width=bar * 0.92, color=colour, alpha=0.85, label=str(s["input"]))
            ax.errorbar(xs, ys, yerr=[err_lo, err_hi], fmt="none", ecolor="#222222", elinewidth=1.0, capsize=2.5)
        ax.axhline(0, color="#444444", linewidth=0.8)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels([str(lab) for lab in labels], fontsize=8, parse_math=False)
        ax.set_ylabel(ylabel)
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        _inputs_legend(ax, ncol=min(k, 4))
        return _finished_svg(fig)
