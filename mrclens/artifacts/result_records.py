"""The records of ``results.json`` (:mod:`mrclens.artifacts.results`, which owns the file, writes and reads them
and re-exports every record; import them from there): a set's scores, an ablation's and a category's figures,
their replicates, the model, the inputs, the bootstrap's settings, the audit's record and the model-free figures.

Fields, units and which are optional: the schema in :mod:`mrclens.artifacts.results`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mrclens.artifacts.ablation import AblationMeta
from mrclens.artifacts.training_record import TrainingRecord


@dataclass
class SubsetScore:
    """EM/F1 (percent) of a set over one SQuAD v2.0 subset (``HasAns`` or ``NoAns``).

    ``abstained``: questions of the subset the model answered ``""`` (no answer).
    """

    n: int
    exact_match: float | None = None
    f1: float | None = None
    abstained: int | None = None


@dataclass
class SubsetDrop:
    """An ablation's scores and paired F1 drop (with its paired bootstrap CI) over one v2.0 subset
    (percent / percentage points; ``n`` paired questions)."""

    n: int
    exact_match: float | None = None
    f1: float | None = None
    baseline_exact_match: float | None = None
    baseline_f1: float | None = None
    f1_drop: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None


@dataclass
class SetResult:
    """Official EM/F1 (percent) of one set; ``None`` numbers when it was not evaluated."""

    file: str | None
    n: int
    exact_match: float | None = None
    f1: float | None = None
    missing: int | None = None
    unknown: int | None = None
    evaluated: bool = True
    reason_not_evaluated: str | None = None
    subsets: dict[str, SubsetScore] | None = None


@dataclass
class ChangedOnly:
    """An ablation's figures over the questions it changed only (percent / percentage points)."""

    n: int
    f1: float | None
    baseline_f1: float | None
    f1_drop: float | None
    ci_low: float | None
    ci_high: float | None


@dataclass
class ReplicateFigures:
    """One replicate's (one draw × one reader's) figures of an ablation (percentage points / percent)."""

    draw: int
    reader: int
    f1_drop: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    relative_drop: float | None = None
    excess_drop: float | None = None
    excess_ci_low: float | None = None
    excess_ci_high: float | None = None
    recovered_share: float | None = None
    evidence: str | None = None


@dataclass
class CategoryReplicate:
    """One replicate's figures of a bias category (percentage points)."""

    draw: int
    reader: int
    f1_drop: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    evidence: str | None = None


@dataclass
class ReplicateRecord:
    """One scored replicate: draw ``draw`` of the perturbations (seed ``draw_seed``) predicted by reader ``reader``."""

    draw: int
    draw_seed: int
    reader: int
    reader_seed: int | None
    perturbed_dir: str
    predictions_dir: str


@dataclass
class AblationResult(AblationMeta):
    """One ablation's metadata (:class:`~mrclens.artifacts.ablation.AblationMeta`, its fields first),
    scores, F1 drop with its CI, and reading (fields and units: :mod:`mrclens.artifacts.results`)."""

    evaluated: bool = False
    reason_not_evaluated: str | None = None
    n: int | None = None
    changed: int | None = None
    unchanged_by_reason: dict[str, int] = field(default_factory=dict)
    unpaired: int | None = None
    exact_match: float | None = None
    f1: float | None = None
    baseline_exact_match: float | None = None
    baseline_f1: float | None = None
    em_drop: float | None = None
    f1_drop: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    changed_only: ChangedOnly | None = None
    reading: str | None = None
    evidence: str | None = None
    relative_drop: float | None = None
    relative_ci_low: float | None = None
    relative_ci_high: float | None = None
    control_of: str | None = None
    control: str | None = None
    control_f1_drop: float | None = None
    excess_drop: float | None = None
    excess_ci_low: float | None = None
    excess_ci_high: float | None = None
    excess_n: int | None = None
    recovered_share: float | None = None
    recovered_ci_low: float | None = None
    recovered_ci_high: float | None = None
    replicates: list[ReplicateFigures] = field(default_factory=list)
    f1_drop_min: float | None = None
    f1_drop_max: float | None = None
    f1_drop_sd: float | None = None
    excess_drop_min: float | None = None
    excess_drop_max: float | None = None
    excess_drop_sd: float | None = None
    unstable: bool | None = None

    @property
    def n_replicates(self) -> int:
        """How many draws × readers the figures combine (1 for a single run)."""
        return max(len(self.replicates), 1)
    subsets: dict[str, SubsetDrop] | None = None
    reference: str | None = None
    reference_figure: str | None = None
    compared_value: float | None = None
    reference_value: float | None = None
    reference_ci_low: float | None = None
    reference_ci_high: float | None = None
    reference_difference: float | None = None
    reference_difference_ci_low: float | None = None
    reference_difference_ci_high: float | None = None
    #: the standard error and degrees of freedom (``None``: normal) the difference's interval is drawn with
    reference_difference_se: float | None = None
    reference_difference_df: float | None = None
    reference_bias: str | None = None


@dataclass
class CategoryResult:
    """A bias category: the mean F1 drop of its evaluated ablations with a joint CI, and its reading."""

    category: str
    ablations: list[str]
    evaluated: list[str]
    f1_drop: float | None
    ci_low: float | None
    ci_high: float | None
    reading: str | None = None
    evidence: str | None = None
    replicates: list[CategoryReplicate] = field(default_factory=list)
    f1_drop_min: float | None = None
    f1_drop_max: float | None = None
    f1_drop_sd: float | None = None
    unstable: bool | None = None
    subsets: dict[str, SubsetDrop] | None = None
    reference: str | None = None
    reference_bias: str | None = None
    reference_difference: float | None = None
    reference_difference_ci_low: float | None = None
    reference_difference_ci_high: float | None = None
    #: the standard error and degrees of freedom (``None``: normal) the difference's interval is drawn with
    reference_difference_se: float | None = None
    reference_difference_df: float | None = None
    reference_basis: str | None = None
    reference_confidence: float | None = None
    reference_mde: float | None = None
    reference_band: float | None = None
    #: points of relative drop that a shortcut planted in 1 % of the questions adds to the category's difference
    #: (issue 54: the drop route's planted-share scale, :mod:`mrclens.scoring.drop_scale`); ``None``: not calibrated
    #: for the reader profile (the difference and band are then read in points)
    reference_per_planted_pct: float | None = None
    reference_why: str | None = None
    reference_shape: str | None = None


@dataclass
class ModelRecord:
    """The model whose predictions were scored: ``kind`` is ``"baseline"`` or ``"external"``.

    ``no_answer``: for a baseline reader that abstains (trained on SQuAD v2.0 data), its no-answer
    threshold and how it was chosen (``{"threshold", "threshold_score", "chosen_on", "exact_match",
    "f1", "n", "abstained"}``, :mod:`mrclens.baseline_model.no_answer`); ``None`` otherwise.
    """

    kind: str
    name: str | None
    config: dict[str, Any] | None = None
    no_answer: dict[str, Any] | None = None


@dataclass
class InputFile:
    """An input file and its sha256 (``role`` e.g. ``"train"``, ``"set:e1"``, ``"predictions:e1"``)."""

    role: str
    file: str
    sha256: str | None


@dataclass
class BootstrapSettings:
    """The paired bootstrap's settings: resamples, confidence level (e.g. 0.95) and seed."""

    n_resamples: int
    confidence: float
    seed: int


@dataclass
class AuditRecord:
    """What an audit adds: its options, the title split (single-file audits), the model directory and training log.

    ``options`` are the effective options (defaults resolved); ``option_sources`` says where each
    came from (``"command line"``, ``"config file PATH"``, ``"default"``; empty when the audit was
    run from Python without saying).
    """

    options: dict[str, Any]
    split: dict[str, Any] | None
    model_dir: str
    training_log: list[dict[str, Any]] | None
    option_sources: dict[str, str] = field(default_factory=dict)
    #: how the reader's training ended (issue 16; ``None`` in older files and for a reader saved
    #: before the record existed): :class:`~mrclens.artifacts.training_record.TrainingRecord`
    training: TrainingRecord | None = None


@dataclass
class ModelFreeFigure:
    """One model-free figure of the audited data beside the reference's (:mod:`mrclens.scoring.model_free`).

    ``value`` and its CI are in the figure's unit (percent, or words for n-gram lengths); ``n``
    counts questions; ``difference`` = value − reference value with its CI (at ``difference_confidence``:
    family-wise over the tests an audit reads together for a verdict figure, issue 41); ``comparison`` is
    ``"higher"``, ``"lower"`` (beyond the band), ``"slightly higher"``, ``"slightly lower"`` (inside it, clear of
    ``±margin``), ``"in line"`` (inside it), ``"inconclusive"`` (neither) or ``None`` (no reference); ``mde``: the
    smallest difference beyond the band read at 80 % power
    (:func:`mrclens.metrics.power.minimum_detectable_effect`); ``bias_when`` is the
    direction that offers the shortcut. ``role`` is ``"verdict"`` for a chance-corrected figure that
    the category verdict reads, ``"description"`` for a raw figure shown beside it (files written
    before issue 32 have only verdict figures); ``chance`` is the figure's value under chance (50 for
    a percentile rank, the share a random sentence gives for a raw share; ``None``: not defined);
    ``reference_standardised``: the reference value was re-weighted to this data's sentence counts;
    ``margin``: the difference (points) its interval must clear to read "slightly higher"/"slightly lower" (0: any);
    ``band``: the smallest effect of interest — beyond it "higher"/"lower", inside it "in line" (without a band, the
    margin is the band; issue 54); ``per_planted_pct``: points of the figure per percent of questions planted with
    its family's shortcut (:data:`mrclens.scoring.model_free.PER_PLANTED_PCT`; ``None``: not calibrated, files
    written before issue 54), the scale of :meth:`planted`.
    """

    category: str
    path: str
    label: str
    bias_when: str
    value: float
    ci_low: float
    ci_high: float
    n: int
    reference: str | None = None
    reference_value: float | None = None
    reference_ci_low: float | None = None
    reference_ci_high: float | None = None
    reference_n: int | None = None
    difference: float | None = None
    difference_ci_low: float | None = None
    difference_ci_high: float | None = None
    comparison: str | None = None
    articles: int | None = None
    role: str = "verdict"
    chance: float | None = None
    reference_standardised: bool = False
    margin: float = 0.0
    difference_confidence: float | None = None
    mde: float | None = None
    band: float | None = None
    #: the standard error and degrees of freedom (``None``: normal) the difference's interval is drawn with
    difference_se: float | None = None
    difference_df: float | None = None
    per_planted_pct: float | None = None

    def planted(self, points: float | None) -> float | None:
        """``points`` of this figure (a difference, a band) as a planted share: "as much as a shortcut in N % of the
        questions" (percent; ``None`` without a scale or a value).

        >>> ModelFreeFigure("Position", "p", "l", "higher", 60.0, 58.0, 62.0, 100, per_planted_pct=0.5).planted(2.0)
        4.0
        """
        if points is None or not self.per_planted_pct:
            return None
        return points / self.per_planted_pct
