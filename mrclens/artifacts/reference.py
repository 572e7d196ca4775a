"""The reference file: what audits are read against (issue 17): a reference dataset's model-free
figures and, per reader profile, the relative drops of its audit.

MRCLens ships one, for SQuAD v1.1 (:data:`BUNDLED_REFERENCE`, built by
``benchmarks/make_reference.py``: the model-free figures of SQuAD v1.1 dev and train but the bundled
sample's articles from ``mrclens stats``, with long-context strata of joined paragraphs (issue 41),
and the drops of SQuAD v1.1 audits with each shipped reader profile, since a reader's strength
changes its drops); ``mrclens audit --reference FILE`` reads another one written by the same
script, and ``--reference AUDIT_DIR`` reads an earlier audit as the reference
(:func:`mrclens.scoring.reference_builder.reference_from_audit`; e.g. the previous release of
one's own dataset). Schema (format version :data:`FORMAT_VERSION`; version 1 files have no
``audits``, version 2 files no ``structure_sd_other_shape``)::

    {"format_version": 3, "name": "SQuAD v1.1",
     "provenance": {"source", "sha256", "command", "commit", "date", "mrclens_version"},
     "figures": {dotted stats path: {"value", "n", "std", "se", "strata" (optional):
                                     {stratum: [n, mean, std]}}},
     "audits": {profile: {"profile", "baseline_f1", "provenance": {"command", "commit", "date",
                          "source", "reader_f1", ...},
                          "ablations": {id: {"figure", "value", "ci_low", "ci_high", "n",
                                             "f1_drop", "excess_drop", "runs", "run_sd", "structure_sd",
                                             "structure_sd_other_shape", "cluster_factor"}},
                          "structure_sd" (optional): {category: SD},
                          "structure_sd_other_shape" (optional): {category: SD},
                          "structure_counterparts", "structure_counterparts_other_shape" (optional): int,
                          "truncation": "random" | "every" | "first", (absent: "first")
                          "run_ablations" (optional): [{id: {"figure", "value", ...}}, ...]}}}

``figures`` holds the :mod:`mrclens.stats` figures that the model-free evidence uses
(:data:`mrclens.scoring.model_free.FIGURES`): a share in percent with ``std`` ``null``, or a
mean with its standard deviation; ``n`` counts the questions it is computed on. An audit's
``ablations`` hold, per ablation, the figure its reading compares (``figure``:
``"relative_excess_drop"`` — the excess drop over the matched control as a percentage of the
baseline F1 — for an insertion ablation with a control, else ``"relative_drop"``), in percent of
the baseline F1, with its CI (:func:`mrclens.scoring.against_reference.relative_figure`).
``structure_sd`` (per ablation, and per bias category in ``audits[profile]``) is how much the figure
moves when only the data's *structure* moves: clean SQuAD data of other shapes (the structural
counterparts and clean sides of ``mrclens selftest``) audited with a reader profile
(:func:`mrclens.scoring.structure_term.structure_spread`, ``benchmarks/make_reference.py --structure``).
It comes in two strata (issue 41): ``structure_sd`` for data whose contexts are as long as the reference's
(:attr:`mrclens.scoring.model_free.ContextShape.differs` false: other articles, another layout), measured on
counterparts of that shape, and ``structure_sd_other_shape`` for data whose median context length differs by
:data:`mrclens.scoring.model_free.SHAPE_RATIO` or more, measured on counterparts of other lengths; data whose
length is unknown takes the larger of the two (:meth:`ReferenceAudit.for_shape`). A file without the second
stratum applies ``structure_sd`` to every shape. ``structure_counterparts`` (and ``_other_shape``) count the clean
counterparts each stratum's terms were estimated on: a term from ``k`` counterparts enters a comparison's degrees of
freedom with ``k − 1`` (:attr:`ReferenceAudit.structure_df`); a file without them (written before they were kept)
reads the terms as known, with normal intervals.
``run_ablations`` keeps each training run's own figures, in the order of ``provenance["runs"]``, so that a
run can be added later without re-running the others (``benchmarks/make_reference.py --add-runs``).

Examples:
    >>> ref = Reference("toy", {"source": "toy.json"}, {"similarity.answer_in_most_similar_sentence_pct":
    ...                                               ReferenceFigure(value=80.0, n=100)})
    >>> Reference.from_json(ref.to_json(), "ref.json") == ref
    True
    >>> ref.audits["quick"] = ReferenceAudit("quick", 46.7, {"commit": "abc"},
    ...     {"e1": ReferenceDrop("relative_excess_drop", 39.8, 31.0, 48.9, 336, 18.9, 18.6)})
    >>> Reference.from_json(ref.to_json(), "ref.json") == ref
    True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mrclens.artifacts import _files
from mrclens.io_utils import atomic_write_json

#: The reference format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 3

#: The shipped reference: SQuAD v1.1 (file inside the package data).
BUNDLED_REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference-squad-v1.1.json"

_HINT = ("write a reference file with `benchmarks/make_reference.py DATA --name NAME --out FILE [--audit DIR]`, "
         "or pass an audit directory (the folder that holds its results.json)")
_NUM = (float, type(None))


@dataclass
class ReferenceFigure:
    """One reference figure: ``value`` (percent or words), its standard deviation (``None`` for a share),
    ``n`` and, when computed, ``se``: its standard error clustered by article
    (:func:`mrclens.scoring.model_free.cluster_standard_errors`)."""

    value: float | None
    n: int
    std: float | None = None
    se: float | None = None
    #: per sentence-count stratum (:data:`mrclens.stats.chance.STRATA`) of a chance-corrected figure:
    #: ``(n, mean, std)``, for :func:`mrclens.scoring.model_free.standardised_reference`; ``None``: not kept.
    strata: dict[str, tuple[int, float, float]] | None = None


@dataclass
class ReferenceDrop:
    """One ablation's figure in a reference audit, in percent of the baseline F1.

    Attributes:
        figure: ``"relative_excess_drop"`` or ``"relative_drop"``.
        value, ci_low, ci_high: the figure and its CI (percent of the baseline F1).
        n: questions it is computed on.
        f1_drop / excess_drop: the absolute figures behind it (F1 points), for the report.
        runs: how many audits (training runs) the figure combines.
        run_sd: with several runs, the standard deviation of the figure between training runs
            beyond what each run's CI covers (``None``: one run, not measured); a comparison adds
            it to the audited run's uncertainty (:mod:`mrclens.scoring.against_reference`).
        structure_sd: the standard deviation of the figure between clean datasets that differ from the
            reference only in structure (context length, sentences, questions per paragraph), beyond
            their CIs and ``run_sd``, in percentage points of relative drop (``None``: not measured);
            a comparison adds it too (:func:`mrclens.scoring.structure_term.structure_spread`). For data
            whose contexts are as long as the reference's (module docstring).
        structure_sd_other_shape: the same for data whose context length differs from the reference's
            (``None``: not measured separately; :meth:`ReferenceAudit.for_shape`).
        cluster_factor: how much wider an audit's per-question bootstrap error of this figure is when its
            questions are resampled by article (≥ 1; ``None``: not measured, read as 1), pooled over many
            audits (``benchmarks/drop_clustering.py``); a comparison multiplies the audited side's error by it.
    """

    figure: str
    value: float
    ci_low: float
    ci_high: float
    n: int
    f1_drop: float | None = None
    excess_drop: float | None = None
    runs: int = 1
    run_sd: float | None = None
    structure_sd: float | None = None
    cluster_factor: float | None = None
    structure_sd_other_shape: float | None = None

    @property
    def run_df(self) -> int | None:
        """The degrees of freedom of :attr:`run_sd` (the spread of :attr:`runs` training runs around their mean:
        ``runs − 1``), for a comparison's Welch–Satterthwaite degrees of freedom; ``None`` for one run.

        >>> ReferenceDrop("relative_drop", 20.0, 18.0, 22.0, 500, runs=8, run_sd=1.5).run_df
        7
        """
        return self.runs - 1 if self.runs > 1 else None


@dataclass
class ReferenceAudit:
    """A reference dataset's audit with one reader profile: its baseline F1 and per-ablation figures.

    ``structure_sd``: bias category → the standard deviation of the category's mean difference between
    clean datasets of other structures (percentage points of relative drop; empty: not measured), added to
    the category comparison's uncertainty (:func:`mrclens.scoring.against_reference.category_comparison`),
    for data whose contexts are as long as the reference's; ``structure_sd_other_shape`` the same for data of
    another context length (empty: not measured separately; :meth:`for_shape` picks the stratum).

    ``structure_counterparts`` / ``structure_counterparts_other_shape``: how many clean counterparts each
    stratum's terms were estimated on (``None``: unknown, :attr:`structure_df`).

    ``truncation``: the rule its truncated set was made with (:data:`mrclens.artifacts.manifest.TRUNCATION_RULES`);
    an audit read against this profile perturbs with the same rule, so e1, e2 and e6–e10 are measured
    on sets made the same way (a file without it was made with ``"first"``, the only rule then).
    """

    profile: str
    baseline_f1: float | None
    provenance: dict[str, Any] = field(default_factory=dict)
    ablations: dict[str, ReferenceDrop] = field(default_factory=dict)
    structure_sd: dict[str, float] = field(default_factory=dict)
    truncation: str = "first"
    structure_sd_other_shape: dict[str, float] = field(default_factory=dict)
    #: how many clean counterparts the terms of each stratum were estimated on (``None``: not recorded, a file
    #: written before they were kept; :attr:`structure_df`).
    structure_counterparts: int | None = None
    structure_counterparts_other_shape: int | None = None
    #: each combined run's own figures (:func:`mrclens.scoring.reference_builder.combine_reference_audits`),
    #: in the order of ``provenance["runs"]``; empty for one run or a file written before they were kept.
    run_ablations: list[dict[str, ReferenceDrop]] = field(default_factory=list)

    def run_audits(self) -> list["ReferenceAudit"]:
        """The single-run audits this audit combines, rebuilt from :attr:`run_ablations` and
        ``provenance["runs"]`` (each with its own reader F1 and provenance, and this audit's truncation
        rule); ``[self]`` for an audit of one run.

        Raises:
            ValueError: the audit combines several runs but did not keep their figures (written before
                they were kept), or keeps figures for another number of runs than its provenance names.
        """
        runs = self.provenance.get("runs")
        if not runs:
            return [self]
        if len(self.run_ablations) != len(runs):
            raise ValueError(f"the {self.profile} reference audit combines {len(runs)} runs but keeps the figures of "
                             f"{len(self.run_ablations)}: it was written before each run's figures were kept; "
                             "give all its audit folders again")
        return [ReferenceAudit(self.profile, prov.get("reader_f1"), dict(prov), dict(drops), truncation=self.truncation)
                for prov, drops in zip(runs, self.run_ablations)]

    def for_shape(self, differs: bool | None) -> "ReferenceAudit":
        """This audit with the structure terms of data of the reference's context length (``differs`` false:
        itself), of another length (``differs`` true: :attr:`structure_sd_other_shape` and each ablation's
        ``structure_sd_other_shape`` in place of ``structure_sd``), or of an unknown length (``None``: the larger
        of the two, per category and per ablation). Itself when the second stratum was not measured.

        >>> a = ReferenceAudit("quick", 40.0, structure_sd={"Similarity": 4.0, "Question": 5.0},
        ...     structure_sd_other_shape={"Similarity": 9.0, "Question": 3.0},
        ...     ablations={"e1": ReferenceDrop("relative_excess_drop", 40.0, 35.0, 45.0, 300, structure_sd=5.0,
        ...                                    structure_sd_other_shape=11.0)})
        >>> other, unknown = a.for_shape(True), a.for_shape(None)
        >>> other.structure_term("Question"), other.ablations["e1"].structure_sd, a.for_shape(False) is a
        (3.0, 11.0, True)
        >>> unknown.structure_term("Similarity"), unknown.structure_term("Question")
        (9.0, 5.0)

        The counterparts behind the terms follow the stratum (:attr:`structure_df`); of an unknown length, the fewer
        of the two strata's (the conservative count, since the larger term may come from either).
        """
        from dataclasses import replace

        if differs is False or not self.structure_sd_other_shape:
            return self

        def pick(like: float | None, other: float | None) -> float | None:
            if differs or like is None or other is None:
                return like if other is None else other
            return max(like, other)

        drops = {k: replace(d, structure_sd=pick(d.structure_sd, d.structure_sd_other_shape))
                 for k, d in self.ablations.items()}
        cats = {c: pick(self.structure_sd.get(c), v) for c, v in self.structure_sd_other_shape.items()}
        counts = [n for n in (self.structure_counterparts, self.structure_counterparts_other_shape) if n is not None]
        if differs:
            count = self.structure_counterparts_other_shape
        else:
            count = min(counts) if len(counts) == 2 else None
        return replace(self, ablations=drops, structure_sd={**self.structure_sd, **cats}, structure_counterparts=count)

    @property
    def structure_df(self) -> int | None:
        """The degrees of freedom of this audit's structure terms (:attr:`structure_sd`, per category and per
        ablation), for the Welch–Satterthwaite degrees of freedom of a comparison
        (:func:`mrclens.scoring.against_reference.category_comparison`): ``k − 1`` for ``k`` counterparts (one
        counterpart: 1), after :meth:`for_shape` those of the stratum it picked; ``None`` (normal: the terms read as
        known) when the count is not recorded — a file written before it was kept.

        >>> ReferenceAudit("quick", 40.0, structure_counterparts=6).structure_df, ReferenceAudit("quick", 40.0).structure_df
        (5, None)
        """
        n = self.structure_counterparts
        return None if n is None else max(n - 1, 1)

    def structure_term(self, category: str) -> float:
        """The structure term of ``category`` (:attr:`structure_sd`), percentage points of relative drop;
        0 where this reference measured none for it (a plug-in's category, an older reference)."""
        return self.structure_sd[category] if category in self.structure_sd else 0.0


@dataclass
class Reference:
    """A reference dataset's figures (schema in the module docstring)."""

    name: str
    provenance: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, ReferenceFigure] = field(default_factory=dict)
    audits: dict[str, ReferenceAudit] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION

    def audit_for(self, profile: str | None) -> "ReferenceChoice":
        """The reference an audit is read against, chosen once for reader ``profile`` (its audit with that profile,
        or none: ``profile`` is ``None`` or this reference has no audit of it). The audit passes the choice on to
        the truncation step (:attr:`ReferenceAudit.truncation`) and to the comparison
        (:func:`mrclens.scoring.against_reference.compare_with_reference`), which picks the structure terms of
        the data's context length (:meth:`ReferenceChoice.for_shape`). Never raises.

        >>> ref = Reference("SQuAD v1.1", audits={"quick": ReferenceAudit("quick", 48.0)})
        >>> ref.audit_for("quick").audit.baseline_f1, ref.audit_for("paper").audit, ref.audit_for(None).profile
        (48.0, None, None)
        """
        return ReferenceChoice(self, profile, self.audits.get(profile) if profile else None)

    def to_json(self) -> dict[str, Any]:
        return {"format_version": FORMAT_VERSION, "name": self.name, "provenance": dict(self.provenance),
                "figures": {path: {"value": f.value, "n": f.n, "std": f.std, "se": f.se,
                                   **({"strata": {k: list(v) for k, v in f.strata.items()}} if f.strata else {})}
                            for path, f in self.figures.items()},
                "audits": {p: {"profile": a.profile, "baseline_f1": a.baseline_f1, "provenance": dict(a.provenance),
                               "ablations": {i: dict(vars(d)) for i, d in a.ablations.items()},
                               **({"structure_sd": dict(a.structure_sd)} if a.structure_sd else {}),
                               **({"structure_sd_other_shape": dict(a.structure_sd_other_shape)}
                                  if a.structure_sd_other_shape else {}),
                               **({"structure_counterparts": a.structure_counterparts}
                                  if a.structure_counterparts is not None else {}),
                               **({"structure_counterparts_other_shape": a.structure_counterparts_other_shape}
                                  if a.structure_counterparts_other_shape is not None else {}),
                               "truncation": a.truncation,
                               **({"run_ablations": [{i: dict(vars(d)) for i, d in run.items()}
                                                     for run in a.run_ablations]} if a.run_ablations else {})}
                           for p, a in self.audits.items()}}

    @classmethod
    def from_json(cls, obj: Any, path: str | os.PathLike) -> "Reference":
        """Parse a reference object.

        Raises:
            ArtifactError: a field is missing or has the wrong type (the message names file and figure).
        """
        f = _files.field
        version = _files.check_version(obj, path, FORMAT_VERSION)
        figures = {}
        for fig_path, fig in f(obj, "figures", dict, path).items():
            where = f"figure {fig_path}: "
            figures[fig_path] = ReferenceFigure(value=f(fig, "value", _NUM, path, where),
                                                n=f(fig, "n", int, path, where),
                                                std=f(fig, "std", _NUM, path, where, None),
                                                se=f(fig, "se", _NUM, path, where, None),
                                                strata=_strata(f(fig, "strata", (dict, type(None)), path, where, None),
                                                               path, where))
        audits = {}
        for profile, a in f(obj, "audits", dict, path, "", {}).items():
            where = f"audit {profile}: "
            drops = _drops(f(a, "ablations", dict, path, where), path, where)
            per_run = [_drops(f({"run_ablations": run}, "run_ablations", dict, path, f"{where}run {i + 1}: "),
                              path, f"{where}run {i + 1}: ")
                       for i, run in enumerate(f(a, "run_ablations", list, path, where, []))]
            audits[profile] = ReferenceAudit(profile=f(a, "profile", str, path, where),
                                             baseline_f1=f(a, "baseline_f1", _NUM + (int,), path, where, None),
                                             provenance=dict(f(a, "provenance", dict, path, where, {})), ablations=drops,
                                             structure_sd=_sds(f(a, "structure_sd", dict, path, where, {}), path, where),
                                             truncation=_rule(f(a, "truncation", str, path, where, "first"), path, where),
                                             run_ablations=per_run,
                                             structure_sd_other_shape=_sds(f(a, "structure_sd_other_shape", dict, path,
                                                                             where, {}), path, where,
                                                                           "structure_sd_other_shape"),
                                             structure_counterparts=_count(
                                                 f(a, "structure_counterparts", (int, type(None)), path, where, None),
                                                 path, where, "structure_counterparts"),
                                             structure_counterparts_other_shape=_count(
                                                 f(a, "structure_counterparts_other_shape", (int, type(None)), path,
                                                   where, None), path, where, "structure_counterparts_other_shape"))
        return cls(name=f(obj, "name", str, path), provenance=dict(f(obj, "provenance", dict, path, "", {})),
                   figures=figures, audits=audits, format_version=version)


@dataclass(frozen=True)
class ReferenceChoice:
    """A reference and the audit of it that one reader is read against (:meth:`Reference.audit_for`).

    ``profile``: the reader profile asked for (``None``: no drops to compare, e.g. a saved reader of another
    run); ``audit``: the reference's audit with that profile, or one built for the reader (a model's own
    evaluation on the reference's sets, :mod:`mrclens.scoring.own_reference`), or ``None`` (none to read the
    drops against: the categories are read from the model-free figures alone).
    """

    reference: Reference
    profile: str | None
    audit: ReferenceAudit | None

    @property
    def name(self) -> str:
        """The reference's name in the readings (``"SQuAD v1.1"``)."""
        return self.reference.name

    def for_shape(self, differs: bool | None) -> ReferenceAudit | None:
        """The audit with the structure terms of the data's context length (:meth:`ReferenceAudit.for_shape`;
        ``differs``: ``None`` when the length is unknown), or ``None`` without an audit."""
        return None if self.audit is None else self.audit.for_shape(differs)


def _drops(obj: dict, path: str | os.PathLike, where: str) -> dict[str, ReferenceDrop]:
    """An ``ablations`` object's :class:`ReferenceDrop` figures (module docstring)."""
    f = _files.field
    drops = {}
    for aid, d in obj.items():
        w = f"{where}ablation {aid}: "
        drops[aid] = ReferenceDrop(figure=f(d, "figure", str, path, w), value=f(d, "value", (float, int), path, w),
                                   ci_low=f(d, "ci_low", (float, int), path, w),
                                   ci_high=f(d, "ci_high", (float, int), path, w), n=f(d, "n", int, path, w),
                                   f1_drop=f(d, "f1_drop", _NUM + (int,), path, w, None),
                                   excess_drop=f(d, "excess_drop", _NUM + (int,), path, w, None),
                                   runs=f(d, "runs", int, path, w, 1),
                                   run_sd=f(d, "run_sd", _NUM + (int,), path, w, None),
                                   structure_sd=f(d, "structure_sd", _NUM + (int,), path, w, None),
                                   structure_sd_other_shape=f(d, "structure_sd_other_shape", _NUM + (int,), path, w, None),
                                   cluster_factor=_factor(f(d, "cluster_factor", _NUM + (int,), path, w, None), path, w))
    return drops


def _strata(obj: dict | None, path: str | os.PathLike, where: str) -> dict[str, tuple[int, float, float]] | None:
    """A figure's ``strata`` (``{stratum: [n, mean, std]}``), checked: finite numbers, ``n`` ≥ 1.

    Raises:
        ArtifactError: a stratum is not three finite numbers (the message names file and figure).
    """
    import math

    from mrclens.errors import ArtifactError

    if obj is None:
        return None
    out = {}
    for key, v in obj.items():
        ok = (isinstance(v, list) and len(v) == 3 and type(v[0]) is int and v[0] >= 1
              and all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in v[1:]))
        if not ok:
            raise ArtifactError(f"{path}: {where}stratum {key!r} must be [n >= 1, mean, std] (finite numbers), got {v!r}")
        out[str(key)] = (v[0], float(v[1]), float(v[2]))
    return out


def _factor(value: float | None, path: str | os.PathLike, where: str) -> float | None:
    """An ablation's ``cluster_factor``, checked: ``None`` or a finite number ≥ 1.

    Raises:
        ArtifactError: anything else (the message names file and ablation).
    """
    import math

    from mrclens.errors import ArtifactError

    if value is not None and (not math.isfinite(value) or value < 1):
        raise ArtifactError(f"{path}: {where}cluster_factor must be a finite number >= 1, got {value!r}")
    return value


def _count(value: int | None, path: str | os.PathLike, where: str, name: str) -> int | None:
    """A stratum's count of counterparts (``name``), checked: ``None`` or an integer ≥ 1.

    Raises:
        ArtifactError: anything else (the message names file, profile and field).
    """
    from mrclens.errors import ArtifactError

    if value is not None and (isinstance(value, bool) or value < 1):
        raise ArtifactError(f"{path}: {where}{name} must be an integer >= 1, got {value!r}")
    return value


def _rule(rule: str, path: str | os.PathLike, where: str) -> str:
    """An audit's ``truncation`` rule, checked against :data:`mrclens.artifacts.manifest.TRUNCATION_RULES`.

    Raises:
        ArtifactError: an unknown rule (the message names file and profile).
    """
    from mrclens.artifacts.manifest import TRUNCATION_RULES
    from mrclens.errors import ArtifactError

    if rule not in TRUNCATION_RULES:
        raise ArtifactError(f"{path}: {where}truncation must be one of {', '.join(TRUNCATION_RULES)}, got {rule!r}")
    return rule


def _sds(obj: dict, path: str | os.PathLike, where: str, name: str = "structure_sd") -> dict[str, float]:
    """An audit's ``structure_sd`` or ``structure_sd_other_shape`` (``name``; ``{category: SD}``), checked:
    finite numbers ≥ 0.

    Raises:
        ArtifactError: a value is not a finite number ≥ 0 (the message names file and category).
    """
    import math

    from mrclens.errors import ArtifactError

    out = {}
    for key, v in obj.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise ArtifactError(f"{path}: {where}{name} of {key!r} must be a finite number >= 0, got {v!r}")
        out[str(key)] = float(v)
    return out


def write_reference(reference: Reference, path: str | os.PathLike) -> Path:
    """Write ``reference`` as JSON at ``path`` (atomically)."""
    return atomic_write_json(path, reference.to_json(), indent=1)


def read_reference(path: str | os.PathLike | None = None) -> Reference:
    """Read a reference file (default: :data:`BUNDLED_REFERENCE`).

    Raises:
        ArtifactError: the file is missing, not JSON, or malformed.
    """
    path = BUNDLED_REFERENCE if path is None else Path(path)
    return Reference.from_json(_files.read_json_object(path, _HINT), path)
