"""``mrclens card``: draft a dataset card's "Bias, Risks, and Limitations" from an audit.

From an audit's (or ``mrclens evaluate --out``'s) ``results.json`` (:mod:`mrclens.artifacts.results`)
this composes

* the body of a "Bias, Risks, and Limitations" section (:func:`card_body`, no heading of its own:
  the value of the Hugging Face dataset-card template's ``bias_risks_limitations``, which the template
  puts under its ``## Bias, Risks, and Limitations``; the body's own subsections are ``###``, siblings of
  the template's ``### Recommendations``): one plain-language line defining each bias category
  (:attr:`mrclens.categories.BiasCategory.definition`), a compact table of each category's verdict
  against the reference audit (``reference_bias``, decided by ``reference_basis``: the drops, the
  model-free figures or both), its difference with its interval, the smallest difference the audit
  could see (``reference_mde``) and the absolute evidence; the figures behind each verdict with their
  intervals; what MRCLens cannot see (the README's "How to read a verdict"); and the provenance:
  MRCLens version, reader profile, reference, bootstrap settings and the sha256 of every input file
  recorded in the results;
* the recommendations (:func:`card_recommendations`, the template's ``bias_recommendations``): per
  category, what to do about its verdict (:func:`mrclens.reports.glance.advice`: the category's
  ``advice_more`` for "more", the verdict's advice otherwise);
* the whole section (:func:`card_markdown`): the template's heading, the body, ``### Recommendations``;
* a Croissant RAI fragment (:func:`rai_fragment`): ``rai:dataBiases`` (one statement of one or two
  sentences per bias category, :func:`bias_statements`), ``rai:dataLimitations`` (what the audit cannot
  see) and the figures behind each statement in ``mrclens:biasFigures`` (:func:`bias_figures`), under
  the Croissant 1.0 ``@context`` (:data:`mrclens.artifacts.card.CROISSANT_CONTEXT`) with ``mrclens:`` bound.

A category's interval against the reference is family-wise (Bonferroni over the categories read
together); the Markdown and the JSON-LD name it with the same label (:func:`interval_label`,
:func:`mrclens.metrics.bootstrap.family_ci_label`, e.g. ``98.75% CI (95% family-wise)``).

In the Markdown, every text MRCLens did not write itself (a model name, a plug-in's category or
ablation name, a reference name, a warning, a file name) is escaped (:func:`md_text`, :func:`md_code`):
it reads as the text it is, never as HTML (``<img onerror=…>``) or as Markdown that breaks the
table (``|``). The RAI fragment is JSON text and holds the names as they are.

Both are drafts for the dataset's authors to edit, and say so: a verdict is evidence about this
data read by a small baseline reader, not a certificate that the data is free of bias.
The files are written by :mod:`mrclens.artifacts.card` (:func:`write_dataset_card`).

Units: a category's difference to the reference is the mean, over its ablations, of the
difference of their drops in percent of the baseline F1 (accuracy for multiple choice), each
signed towards the bias (:mod:`mrclens.scoring.against_reference`); model-free figures are in
their own unit (percent, or words); intervals are at the results' bootstrap confidence level.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mrclens.artifacts.card import (CROISSANT_CONTEXT, FIGURES_PROPERTY, MRCLENS_VOCABULARY, card_paths,
                                    write_card)
from mrclens.artifacts.layout import RESULTS_JSON
from mrclens.artifacts.results import AblationResult, CategoryResult, ModelFreeFigure, Results, read_results
from mrclens.categories import get_category, toward_bias
from mrclens.metrics.bootstrap import family_ci_label
from mrclens.reports.glance import NOT_COMPARED, REFERENCE_LABEL, ReadingFigure, advice, inconclusive_why, reading_figure
from mrclens.verdicts import (BASIS_NAMES, CANNOT_TELL, INCONCLUSIVE, READING_NAMES, UNDECIDED_NAMES, WEAK_READER,
                              basis, reading, undecided)

#: The longest ``rai:dataBiases`` statement (characters) that still gets the category's definition as its
#: second sentence; the figures are in ``mrclens:biasFigures``.
RAI_STATEMENT_CHARS = 400

#: What no MRCLens audit can see (README, "How to read a verdict"); ``{reference}`` is filled in.
LIMITATIONS = (
    "Shortcuts that no ablation probes are not measured: for example answer-type priors beyond the "
    "question's wh-word, or annotation artefacts in the answers themselves.",
    "Biases the reference ({reference}) shares are not flagged: a category \"in line\" with the "
    "reference may still be biased in absolute terms.",
    "Whatever a weak reader does not learn is not seen: the verdicts describe what one reader ({reader}) "
    "picks up on this data; a stronger model may exploit other shortcuts.",
)
_DRAFT = ("This section was drafted by MRCLens {version} from the audit results ({created}). It is a starting "
          "point for the dataset's authors to check, edit and complete, not a certificate: it reports a few "
          "known shortcut biases as measured with one reader, and says below what it cannot see.")


def write_dataset_card(audit_dir: str | os.PathLike, out: str | os.PathLike | None = None, *,
                       force: bool = False) -> list[Path]:
    """Read ``audit_dir/results.json`` and write the card's Markdown section and RAI fragment.

    Args:
        audit_dir: an ``mrclens audit`` or ``mrclens evaluate --out`` directory.
        out: a folder, or a Markdown file name (``.md``); ``None``: ``audit_dir``
            (:func:`mrclens.artifacts.card.card_paths`).
        force: replace existing card files.

    Returns:
        the paths written: the full Markdown section, the JSON-LD, the section's body, its recommendations
        (:meth:`mrclens.artifacts.card.CardPaths.all`).

    Raises:
        ArtifactError: ``results.json`` is missing or malformed.
        OutputError: a card file exists and ``force`` is off, or ``out`` is not a folder or ``.md`` name.
    """
    results = read_results(audit_dir)
    paths = card_paths(out, audit_dir)
    source = Path(audit_dir) / RESULTS_JSON
    return write_card(paths, card_markdown(results, str(source)), rai_fragment(results),
                      body=card_body(results, str(source)), recommendations=card_recommendations(results),
                      force=force, protect=(source,))


# ---------------------------------------------------------------------------- shared pieces
#: The characters that Markdown (CommonMark with GitHub's tables and strikethrough) reads as markup in a line.
_MD_MARKUP = re.compile(r"([\\`*_\[\]|#~])")


def md_text(text: Any) -> str:
    r"""``text`` as Markdown that shows it as it is: ``&``, ``<`` and ``>`` as HTML entities (no raw HTML),
    markup characters (:data:`_MD_MARKUP`, ``|`` included: a table cell stays one cell) behind a
    backslash, and line breaks as spaces (a table row or list item stays one line).

    >>> md_text("<img src=x onerror=alert(1)> | *bold*")
    '&lt;img src=x onerror=alert(1)&gt; \\| \\*bold\\*'
    """
    text = re.sub(r"\s*[\r\n]+\s*", " ", str(text))
    return _MD_MARKUP.sub(r"\\\1", html.escape(text, quote=False))


def md_code(text: Any) -> str:
    """``text`` as a Markdown code span, fenced with more backticks than it holds (CommonMark 6.1).

    >>> md_code("results.json"), md_code("odd`name")
    ('`results.json`', '``odd`name``')
    """
    text = re.sub(r"\s*[\r\n]+\s*", " ", str(text))
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _num(x: float | None, signed: bool = False) -> str:
    if x is None:
        return "n/a"
    return f"{x:+.1f}" if signed else f"{x:.1f}"


def _ci(low: float | None, high: float | None, signed: bool = False) -> str:
    return "no CI" if low is None or high is None else f"{_num(low, signed)} to {_num(high, signed)}"


def _band(results: Results) -> float | None:
    """The drop route's equivalence band of the categories (``reference_band``), or ``None``."""
    return next((c.reference_band for c in results.categories if c.reference_band is not None), None)


def _level(results: Results) -> str:
    return f"{round(100 * results.bootstrap.confidence):d}%"


def reader_description(results: Results) -> str:
    """The reader in words for the card's readers: ``MRCLens baseline reader, quick profile`` or
    ``external model 'NAME'`` (:attr:`~mrclens.artifacts.results.Results.reader_label`)."""
    return ("MRCLens " if results.model.kind == "baseline" else "") + results.reader_label


def reference_name(results: Results) -> str:
    """The reference the categories were read against (``"the reference audit"`` when none is recorded)."""
    return next((c.reference for c in results.categories if c.reference), None) or "the reference audit"


def category_verdict(c: CategoryResult) -> str:
    """``more than SQuAD v1.1`` …, or why there is no verdict."""
    if c.reference_bias is None:
        return f"{reading(None).than} a reference"
    if c.reference_bias not in READING_NAMES:
        return c.reference_bias
    read = reading(c.reference_bias)
    if read.decided:
        return f"{read.than} {c.reference or 'the reference'}"
    why = c.reference_why or WEAK_READER.name
    return f"{read.name}: {(undecided(why) if why in UNDECIDED_NAMES else CANNOT_TELL).says}"


def deciding_figures(results: Results, c: CategoryResult) -> list[str]:
    """One line per figure behind the category's verdict: its compared ablations (drops in percent of
    the baseline score against the reference's) and its model-free figures, each with its CI."""
    level = _level(results)
    lines = [_ablation_line(a, level) for a in results.ablations
             if a.category == c.category and a.control_of is None and a.reference_bias is not None]
    lines += [_figure_line(f, level) for f in results.model_free if f.category == c.category]
    return lines


def _ablation_line(a: AblationResult, level: str) -> str:
    """The ablation's compared figure and the reference's, and their difference signed towards the bias
    (:func:`mrclens.categories.toward_bias`: ``+`` is more of the bias, for a ``small_drop`` ablation a
    *smaller* drop, as the category's mean and the report's forest plot read it)."""
    what = "excess drop" if a.reference_figure == "relative_excess_drop" else "drop"
    d, low, high = ((None, None, None) if a.reference_difference is None else
                    toward_bias(a.reference_difference, a.reference_difference_ci_low, a.reference_difference_ci_high,
                                a.bias_signal))
    return (f"{a.id} ({a.name}): {what} {_num(a.compared_value)}% of the baseline score against "
            f"{_num(a.reference_value)}% ({level} CI {_ci(a.reference_ci_low, a.reference_ci_high)}) in {a.reference}; "
            f"difference towards the bias {_num(d, True)} ({level} CI {_ci(low, high, True)}): {a.reference_bias}")


def _figure_line(f: ModelFreeFigure, level: str) -> str:
    line = f"{f.label}: {_num(f.value)} ({level} CI {_ci(f.ci_low, f.ci_high)}, {f.n:,} questions)"
    if f.reference_value is not None:
        diff_level = (family_ci_label(f.difference_confidence, float(level.rstrip("%")) / 100)
                      if f.difference_confidence else f"{level} CI")
        line += (f" against {_num(f.reference_value)} in {f.reference}; difference {_num(f.difference, True)} "
                 f"({diff_level} {_ci(f.difference_ci_low, f.difference_ci_high, True)}): {f.comparison}")
        band = f.band if f.band is not None else f.margin
        planted = f.planted(f.difference)
        if planted is not None:  # issue 54: the band and the difference as planted shares
            line += (f"; as much as a shortcut in {planted:+.0f} % of the questions "
                     f"({_ci(f.planted(f.difference_ci_low), f.planted(f.difference_ci_high), True)})")
        if f.mde is not None and f.role == "verdict":
            line += (f" ('in line' within ±{_num(band)}" + (f", {f.planted(band):g} % of the questions" if planted is not None
                                                          else "")
                     + f"; sees differences of {_num(f.mde)} or more at 80 % power)")
    if f.role == "description":  # issue 32: a raw figure, beside its chance level; it never decides
        line += (f" (a description, beside what a sentence drawn at random gives: {_num(f.chance)})"
                 if f.chance is not None else " (a description; it does not decide the verdict)")
    return line


def limitations(results: Results) -> list[str]:
    """What the audit cannot see: :data:`LIMITATIONS`, the reader's baseline score, ablations not evaluated."""
    out = [t.format(reference=reference_name(results), reader=reader_description(results)) for t in LIMITATIONS]
    original = results.sets.get("original")
    if original is not None and original.f1 is not None:
        out.append(f"The reader's baseline {results.metric} on the unperturbed evaluation set is "
                   f"{original.f1:.1f} (0-100); below 30 the comparison with the reference is inconclusive.")
    skipped = [a.id for a in results.ablations if not a.evaluated]
    if skipped:
        out.append("Ablations not evaluated in this audit (their biases are not measured): " + ", ".join(skipped) + ".")
    return out


def interval_label(results: Results, c: CategoryResult | None = None) -> str:
    """The label of a category's interval against the reference (family-wise: ``98.75% CI (95% family-wise)``),
    the same in the Markdown and the JSON-LD; without ``c``, that of the first compared category (the
    categories of one audit share it), else the results' plain level."""
    if c is None:
        c = next((x for x in results.categories if x.reference_confidence is not None), None)
    return family_ci_label(c.reference_confidence if c is not None else None, results.bootstrap.confidence)


def category_figure(results: Results, c: CategoryResult) -> ReadingFigure | None:
    """The category's one figure (:func:`mrclens.reports.glance.reading_figure`), as the terminal summary, the
    report's first screen and the ``--wide`` table show it (issue 44)."""
    return reading_figure(c, results.ablations, results.metric, results.model_free)


def figure_interval_label(results: Results, c: CategoryResult) -> str:
    """The label of the interval of the category's one figure: family-wise against the reference
    (:func:`interval_label`), else the results' level (the deciding ablation's own interval)."""
    if c.reference_bias is not None:
        return interval_label(results, c)
    return family_ci_label(None, results.bootstrap.confidence)


def _figure_meaning(results: Results, c: CategoryResult) -> str:
    if c.reference_bias is not None:
        return "the mean difference of the drops from the reference's, towards the bias, in points of the baseline score"
    return (f"not compared with a reference: the {results.metric} points of the ablation whose evidence level is the "
            f"category's")


def _uncompared_note(results: Results) -> str:
    """What the "Figure" of a category read without a reference is (nothing when every category was compared)."""
    if all(c.reference_bias is not None for c in results.categories):
        return ""
    return (f" Without a reference, a category's figure is the drop (or excess drop) of the ablation its "
            f"evidence level is read from, with its {family_ci_label(None, results.bootstrap.confidence)}.")


def _verdict_key(c: CategoryResult) -> str:
    """The verdict as :func:`mrclens.reports.glance.advice` reads it (``not compared`` without a reference)."""
    return c.reference_bias if c.reference_bias in READING_NAMES else NOT_COMPARED


def category_advice(c: CategoryResult, external: bool = False) -> str:
    """What to do about the category's verdict (:func:`mrclens.reports.glance.advice`; ``external``: the results
    are an external model's, scored by ``mrclens evaluate``)."""
    verdict = _verdict_key(c)
    why = inconclusive_why(asdict(c)) if reading(verdict) is INCONCLUSIVE else None
    return advice(c.category, verdict, c.reference, why, c.reference_mde, external)


def bias_statements(results: Results) -> list[str]:
    """One statement per bias category (``rai:dataBiases``), one or two sentences: the verdict, what decided
    it, the difference with its interval and the smallest difference the audit sees; then, where the
    statement stays within :data:`RAI_STATEMENT_CHARS`, the category's definition. The figures behind it
    are in :func:`bias_figures`."""
    out = []
    for c in results.categories:
        text = f"{c.category} bias: {category_verdict(c)}"
        if c.reference_basis:
            words = basis(c.reference_basis).words if c.reference_basis in BASIS_NAMES else c.reference_basis
            text += f" (decided by the {words})"
        one = category_figure(results, c)
        if one is not None:
            text += f"; {one} ({figure_interval_label(results, c)} interval; {_figure_meaning(results, c)})"
        elif c.reference_difference is not None:  # decided by the model-free figures: the drops' difference beside them
            text += (f"; mean difference of the drops towards the bias {_num(c.reference_difference, True)} points "
                     f"of the baseline score ({interval_label(results, c)} "
                     f"{_ci(c.reference_difference_ci_low, c.reference_difference_ci_high, True)})")
        if c.reference_mde is not None:
            text += f"; the audit sees differences of {_num(c.reference_mde)} points or more"
        text += "."
        definition = get_category(c.category).definition
        if len(text) + 1 + len(definition) <= RAI_STATEMENT_CHARS:
            text += " " + definition
        out.append(text)
    return out


def bias_figures(results: Results) -> list[dict[str, Any]]:
    """The figures behind each ``rai:dataBiases`` statement (``mrclens:biasFigures``), one object per category
    in the statements' order: the verdict and its basis, the difference (points of percent of the baseline
    score, ``+`` towards the bias) with its interval and that interval's level and label, the smallest
    difference the audit sees (``mde``, 80 % power) and the band of "in line", the absolute evidence, and
    each compared ablation and model-free figure with its interval (``None`` where a figure is missing); ``figure``:
    the category's one figure (:func:`category_figure`) as every surface prints it (``label``, ``text``), its
    numbers and its interval's label (``None`` when it has none)."""
    out = []
    for c in results.categories:
        ablations = []
        for a in results.ablations:
            if a.category != c.category or a.control_of is not None or a.reference_bias is None:
                continue
            d, low, high = ((None, None, None) if a.reference_difference is None else
                            toward_bias(a.reference_difference, a.reference_difference_ci_low,
                                        a.reference_difference_ci_high, a.bias_signal))
            ablations.append({"id": a.id, "name": a.name, "figure": a.reference_figure, "value": a.compared_value,
                              "reference_value": a.reference_value, "difference": d, "ci_low": low,
                              "ci_high": high, "comparison": a.reference_bias})
        figures = [{"path": f.path, "label": f.label, "value": f.value, "ci_low": f.ci_low, "ci_high": f.ci_high,
                    "n": f.n, "reference_value": f.reference_value, "difference": f.difference,
                    "difference_ci_low": f.difference_ci_low, "difference_ci_high": f.difference_ci_high,
                    "difference_confidence": f.difference_confidence, "comparison": f.comparison, "role": f.role}
                   for f in results.model_free if f.category == c.category]
        one = category_figure(results, c)
        out.append({"category": c.category, "definition": get_category(c.category).definition,
                    "figure": None if one is None else {"label": one.label, "text": one.text, "value": one.value,
                                                        "ci_low": one.low, "ci_high": one.high,
                                                        "interval": figure_interval_label(results, c)},
                    "verdict": c.reference_bias, "reference": c.reference, "basis": c.reference_basis,
                    "difference": c.reference_difference, "ci_low": c.reference_difference_ci_low,
                    "ci_high": c.reference_difference_ci_high, "confidence": c.reference_confidence,
                    "interval": interval_label(results, c) if c.reference_difference is not None else None,
                    "mde": c.reference_mde, "band": c.reference_band, "evidence": c.evidence,
                    "unit": "points of percent of the baseline " + results.metric, "ablations": ablations,
                    "model_free": figures})
    return out


# ---------------------------------------------------------------------------- the two documents
def rai_fragment(results: Results) -> dict[str, Any]:
    """The Croissant RAI fragment: ``{"@context", "rai:dataBiases", "rai:dataLimitations", "mrclens:biasFigures"}``.

    The ``@context`` is Croissant 1.0's with ``mrclens:`` bound to :data:`MRCLENS_VOCABULARY` and
    ``mrclens:biasFigures`` typed ``@json`` (one JSON literal, :func:`bias_figures`). The first limitation
    says that the statements are an automated draft to review, by which reader they were measured and
    where their figures are."""
    draft = (f"These statements were drafted by MRCLens {results.mrclens_version} from an automated audit "
             f"({results.created}) with the {reader_description(results)}; review and edit them before publishing: "
             f"they are not a certificate. Their figures are in {FIGURES_PROPERTY}.")
    context = {**CROISSANT_CONTEXT, "mrclens": MRCLENS_VOCABULARY, FIGURES_PROPERTY: {"@type": "@json"}}
    return {"@context": context, "rai:dataBiases": bias_statements(results),
            "rai:dataLimitations": [draft, *limitations(results)], FIGURES_PROPERTY: bias_figures(results)}


def card_markdown(results: Results, source: str = RESULTS_JSON) -> str:
    """The whole Markdown "Bias, Risks, and Limitations" section as the Hugging Face dataset-card template
    lays it out: its ``##`` heading, :func:`card_body`, ``### Recommendations`` and :func:`card_recommendations`."""
    return ("## Bias, Risks, and Limitations\n\n" + card_body(results, source) + "\n### Recommendations\n\n"
            + card_recommendations(results))


def card_body(results: Results, source: str = RESULTS_JSON) -> str:
    """The section's body without a heading of its own (the template's ``bias_risks_limitations``): the draft
    note, the categories defined, the compact table and the figures behind it, what MRCLens cannot see,
    and the provenance (``###`` subsections)."""
    label = interval_label(results)
    lines = ["> " + _DRAFT.format(version=md_text(results.mrclens_version), created=md_text(results.created)), "",
             "### Shortcut biases measured by MRCLens", "",
             f"A shortcut bias lets a reader find answers without reading. MRCLens probes these "
             f"categories:", ""]
    lines += [f"- **{md_text(c.category)}**: {md_text(get_category(c.category).definition)}" for c in results.categories]
    lines += ["", f"Each category was read against {md_text(reference_name(results))} audited with the same reader "
              f"profile: is this data *more* biased, *in line* with it, or *less*? \"Figure\" is the one figure "
              f"of the category's reading, as the terminal and the report show it: against the reference "
              f"(\"{md_text(REFERENCE_LABEL)}\"), the mean difference of the category's drops (in percent of the "
              f"baseline {results.metric}), each signed towards the bias, with its interval ({label}); \"in line\" "
              f"needs that interval inside ±{_num(_band(results))} points, and \"Sees\" is the smallest difference "
              f"the audit detects with 80 % power: a smaller shortcut can be there unseen." + _uncompared_note(results), "",
              f"| Bias category | Verdict | Figure ({label}) | Sees (80 % power) | Absolute evidence |",
              "|---|---|---|---|---|"]
    for c in results.categories:
        one = category_figure(results, c)
        diff = f"{md_text(one.label)} {one.text}" if one is not None else (
            f"{_num(c.reference_difference, True)} ({_ci(c.reference_difference_ci_low, c.reference_difference_ci_high, True)})"
            if c.reference_difference is not None else "n/a")
        sees = f"{_num(c.reference_mde)} or more" if c.reference_mde is not None else "n/a"
        by = f" (by the {basis(c.reference_basis).words})" if c.reference_basis in BASIS_NAMES else ""
        lines.append(f"| {md_text(c.category)} | {md_text(category_verdict(c) + by)} | {diff} | {sees} "
                     f"| {md_text(c.evidence or 'n/a')} |")
    if not results.categories:
        lines.append("| (none) | no category was evaluated | | | |")
    lines += ["", "The figures behind each verdict:", ""]
    for c in results.categories:
        figures = deciding_figures(results, c)
        lines.append(f"- **{md_text(c.category)}**:" + (" no figure compared with a reference." if not figures else ""))
        lines += [f"  - {md_text(f)}" for f in figures]
    lines += ["", "### What MRCLens cannot see", ""] + [f"- {md_text(t)}" for t in limitations(results)]
    lines += [f"- Warning recorded by the audit: {md_text(w)}" for w in results.warnings]
    lines += ["", "### Provenance", "", *_provenance(results, source)]
    return "\n".join(lines) + "\n"


def card_recommendations(results: Results) -> str:
    """The section's recommendations (the template's ``bias_recommendations``): per category, its verdict and
    what to do about it (:func:`category_advice`), then the reminder that a verdict is not a certificate."""
    external = results.model.kind == "external"
    lines = [f"- **{md_text(c.category)}** ({md_text(category_verdict(c))}): {md_text(category_advice(c, external))}"
             for c in results.categories]
    if not lines:
        lines = ["- No bias category was evaluated: audit the data with `mrclens audit` to get recommendations."]
    lines += ["", "These recommendations follow from one audit with one reader "
              f"({md_text(reader_description(results))}); a category in line with the reference may still be "
              "biased in absolute terms, and shortcuts no ablation probes are not measured."]
    return "\n".join(lines) + "\n"


def _provenance(results: Results, source: str) -> list[str]:
    b = results.bootstrap
    lines = [f"- Tool: MRCLens {md_text(results.mrclens_version)}; results {md_code(source)}, "
             f"created {md_text(results.created)}.",
             f"- Reader: {md_text(reader_description(results))}.",
             f"- Reference: {md_text(reference_name(results))}.",
             f"- Bootstrap: {b.n_resamples:,} resamples, {_level(results)} confidence, seed {b.seed}."]
    data = [i for i in results.inputs if i.sha256 and _is_data_role(i.role)]
    data = data or [i for i in results.inputs if i.sha256 and i.role == "set:original"]
    lines += [f"- Data ({md_text(i.role)}): {md_code(Path(i.file).name)}, sha256 {md_code(i.sha256)}." for i in data]
    if not data:
        lines.append("- Data: no input checksum is recorded in the results.")
    return lines


def _is_data_role(role: str) -> bool:
    """Whether an input of this role is the audited data itself (``train``, ``dev``, multiple-choice
    parts), not a derived file (``manifest``, ``set:…``, ``predictions:…``, another draw's files)."""
    return role not in ("manifest", "reference") and ":" not in role
