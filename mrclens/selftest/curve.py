"""The detection curve of the model-free route (issue 41, part 4): how strong a shortcut must be to be read.

``mrclens selftest --curve`` plants each span shortcut (:data:`mrclens.selftest.plantings.PLANTINGS`) in
10, 25, 50 and 100 % of the questions (:func:`mrclens.selftest.plantings.plant_graded`, seeded), beside
its clean counterpart (rate 0) and the structural counterparts (:data:`mrclens.selftest.plantings.SHAPES`),
for several seeds, and reads every dataset with the **model-free route** alone — the data's figures
against the reference's (:func:`mrclens.scoring.model_free.model_free_figures`, clustered by article,
judged family-wise as an audit judges them: :func:`model_free_verdicts`) — in seconds per dataset once its
paragraphs are parsed, with no reader. It records per family and rate the share read "more" in the
family (the detection curve) and the share of clean and shape counterparts read "more" or "less" in any
category (false flags): :mod:`mrclens.artifacts.detection_curve`, and a picture
(:func:`curve_png`). The drop route needs a trained reader per dataset (``mrclens selftest`` without
``--curve`` audits the 100 % plantings).

A family with no model-free verdict figure is never read "more" by this route: its curve stays at 0, as it should
say. Question's is the set-apart figure (issue 54, item 5: :mod:`mrclens.stats.set_apart`), which the ``marked``
planting moves.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from mrclens.artifacts.detection_curve import CURVE_JSON, CurvePoint, DetectionCurve
from mrclens.categories import CATEGORIES, colour_of
from mrclens.metrics.bootstrap import CONFIDENCE
from mrclens.metrics.power import family_confidence
from mrclens.scoring.against_reference import model_free_reading, verdict_family
from mrclens.scoring.model_free import cluster_standard_errors, judge_figure, model_free_figures
from mrclens.selftest.plantings import GRADED_RATES, PLANTINGS, SHAPES, plant_graded, plant_shape
from mrclens.squad import Dataset
from mrclens.verdicts import MORE, differs


def model_free_verdicts(dataset: Dataset, reference: Any, *, confidence: float = CONFIDENCE,
                        cache_dir: Any = None) -> dict[str, str | None]:
    """Category → the model-free route's reading of ``dataset`` against ``reference`` ("more", "in line",
    "less", "inconclusive", or ``None`` without a verdict figure): its figures clustered by article,
    each verdict figure judged at the family-wise level over the verdict figures read together
    (:func:`mrclens.scoring.against_reference.model_free_reading`)."""
    from mrclens.stats import compute_stats, compute_stats_per_article

    figures = model_free_figures(compute_stats(dataset, cache_dir=cache_dir, progress=False, n_process=1), reference,
                                 confidence, clusters=cluster_standard_errors(compute_stats_per_article(dataset, cache_dir)))
    level = family_confidence(confidence, verdict_family([], [], None, figures))
    for f in figures:
        if f.role == "verdict" and f.difference is not None:
            judge_figure(f, confidence, level)
    return {name: model_free_reading(figures, name) for name in CATEGORIES}


def _flags(verdicts: dict[str, str | None], family: str | None = None) -> list[str]:
    return [c for c, v in verdicts.items() if differs(v) and c != family]


def detection_curve(dataset: Dataset, reference: Any, *, plantings: Sequence[str] | None = None,
                    rates: Sequence[float] = GRADED_RATES, seeds: Sequence[int] = (0, 1),
                    shapes: Sequence[str] | None = None, data_name: str = "data", cache_dir: Any = None,
                    progress: bool = False, echo: Callable[[str], None] = lambda _: None) -> DetectionCurve:
    """The model-free route's detection curve on ``dataset`` (module docstring).

    Args:
        dataset: SQuAD-format data to plant into (e.g. the bundled sample).
        reference: the :class:`~mrclens.artifacts.reference.Reference` the data is read against.
        plantings: span plantings (default: all of :data:`~mrclens.selftest.plantings.PLANTINGS`).
        rates: planting rates (shares of the questions, in (0, 1]).
        seeds: one graded set, clean counterpart and shape counterpart per seed.
        shapes: structural counterparts (default: all of :data:`~mrclens.selftest.plantings.SHAPES`).
        data_name: the data's name in the file.
        echo: called with one line per dataset read.

    Raises:
        KeyError: an unknown planting or shape name.
        ValueError: a rate outside (0, 1].
    """
    from mrclens import __version__

    if any(not 0.0 < r <= 1.0 for r in rates):
        raise ValueError(f"planting rates are shares of the questions in (0, 1], got {list(rates)}")
    names = list(plantings) if plantings is not None else list(PLANTINGS)
    shape_names = list(shapes) if shapes is not None else list(SHAPES)
    points: list[CurvePoint] = []
    for seed in seeds:
        for name in names:
            family = PLANTINGS[name].family
            graded, clean = plant_graded(dataset, name, tuple(rates), seed, cache_dir=cache_dir, progress=progress)
            got = model_free_verdicts(clean, reference, cache_dir=cache_dir)
            points.append(CurvePoint("clean", name, family, 0.0, seed, got, None, _flags(got)))
            echo(f"[curve] seed {seed} {name} clean: {_line(got)}")
            for rate, planted in graded.items():
                got = model_free_verdicts(planted, reference, cache_dir=cache_dir)
                points.append(CurvePoint("graded", name, family, rate, seed, got, got.get(family) == MORE.name,
                                         _flags(got, family)))
                echo(f"[curve] seed {seed} {name} {rate:.0%}: {_line(got)}")
        for shape in shape_names:
            counterpart, _ = plant_shape(dataset, shape, seed, cache_dir=cache_dir, progress=progress)
            got = model_free_verdicts(counterpart, reference, cache_dir=cache_dir)
            points.append(CurvePoint("shape", shape, None, 0.0, seed, got, None, _flags(got)))
            echo(f"[curve] seed {seed} shape {shape}: {_line(got)}")
    return DetectionCurve(__version__, "model-free", reference.name, data_name, dataset.counts()["questions"],
                          [float(r) for r in rates], list(seeds), points)


def _line(verdicts: dict[str, str | None]) -> str:
    return ", ".join(f"{c} {v}" for c, v in verdicts.items() if v is not None)


def format_curve(curve: DetectionCurve) -> str:
    """The curve as a table: per family, the share read "more" at each rate; then the false-flag rates."""
    head = f"{'family':<12}" + "".join(f"{f'{r:.0%}':>8}" for r in curve.rates)
    lines = [f"Detection curve, {curve.route} route, against {curve.reference} ({curve.data}, "
             f"{curve.questions:,} questions; seeds {', '.join(map(str, curve.seeds))}): share read \"more\"", head]
    for family in curve.families():
        cells = [curve.detection_rate(family, r) for r in curve.rates]
        lines.append(f"{family:<12}" + "".join(f"{'–' if c is None else f'{c:.0%}':>8}" for c in cells))
    for kind, what in (("clean", "clean counterparts"), ("shape", "shape counterparts"), ("graded", "graded sets")):
        rate = curve.false_flag_rate(kind)
        if rate is not None:
            other = " (another category)" if kind == "graded" else ""
            lines.append(f"false flags{other}, {what}: {rate:.0%} read \"more\" or \"less\" somewhere")
    return "\n".join(lines)


def curve_png(curve: DetectionCurve, path: Any) -> None:
    """Draw the curve (share read "more" against the planting rate, one line per family, in the family's
    colour; the false-flag rate of the clean and shape counterparts as a dashed line) to a PNG file."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    styles = [("o", "-"), ("s", "--"), ("^", "-."), ("D", ":")]  # families that coincide stay visible
    for i, family in enumerate(curve.families()):
        ys = [curve.detection_rate(family, r) for r in curve.rates]
        colour = colour_of(family)
        marker, line = styles[i % len(styles)]
        offset = 1.5 * (i - (len(curve.families()) - 1) / 2)  # a point apart, so equal curves do not hide
        ax.plot([100 * r for r in curve.rates], [100 * (y or 0) + offset for y in ys], marker=marker,
                linestyle=line, color=colour, label=family, alpha=0.9)
    flags = [curve.false_flag_rate(k) for k in ("clean", "shape")]
    flag = max((f for f in flags if f is not None), default=None)
    if flag is not None:
        ax.axhline(100 * flag, color="#3d4a57", linestyle="--", linewidth=1,
                   label=f"false flags (clean, shape): {flag:.0%}")
    ax.set_xlabel("questions carrying the planted shortcut (%)")
    ax.set_ylabel("read \"more\" in its family (%; lines a point apart)")
    ax.set_ylim(-5, 105)
    ax.set_xlim(0, 105)
    ax.set_title(f"Detection curve, {curve.route} route ({len(curve.seeds)} seeds)", fontsize=10)
    ax.legend(fontsize=8, loc="center right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


#: The picture beside ``detection-curve.json``.
CURVE_PNG = "detection-curve.png"


def run_curve(out: Any, *, data: str | None = None, plantings: Sequence[str] | None = None,
              shapes: Sequence[str] | None = None, rates: Sequence[float] = GRADED_RATES, seeds: Sequence[int] = (0, 1),
              cache_dir: Any = None, progress: bool = False, echo: Callable[[str], None] = lambda _: None
              ) -> DetectionCurve:
    """``mrclens selftest --curve``: the detection curve (:func:`detection_curve`) of the bundled sample (or
    ``data``) against the bundled SQuAD v1.1 reference, written to ``out/detection-curve.json`` and
    ``out/detection-curve.png``.

    Raises:
        OutputError: ``out`` holds something other than an earlier curve (before any work).
        KeyError: an unknown planting or shape name; ValueError: a rate outside (0, 1].
    """
    from pathlib import Path

    from mrclens.artifacts.detection_curve import write_curve
    from mrclens.artifacts.folders import CURVE, check_output_folder
    from mrclens.artifacts.reference import read_reference
    from mrclens.audit.span import SAMPLE_PATH
    from mrclens.formats import load_dataset
    from mrclens.io_utils import staged_output

    check_output_folder(out, CURVE)
    for name in plantings or ():
        PLANTINGS[name]  # noqa: B018 - KeyError before any work
    for name in shapes or ():
        SHAPES[name]  # noqa: B018
    source = data or SAMPLE_PATH
    curve = detection_curve(load_dataset(source), read_reference(), plantings=plantings, rates=rates, seeds=seeds,
                            shapes=shapes, data_name=Path(source).name, cache_dir=cache_dir, progress=progress, echo=echo)
    with staged_output(out, last=[CURVE_JSON]) as staging:  # both files or neither
        curve_png(curve, staging / CURVE_PNG)
        write_curve(staging, curve)
    return curve
