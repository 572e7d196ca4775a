"""``mrclens card``: draft a dataset card's "Bias, Risks, and Limitations" from an audit.

From an audit's (or ``mrclens evaluate --out``'s) ``results.json`` (:mod:`mrclens.artifacts.results`)
this composes, for the readers of a dataset card — people who train on or evaluate with the data —

* the body of a "Bias, Risks, and Limitations" section (:func:`card_body`, no heading of its own:
  the value of the Hugging Face dataset-card template's ``bias_risks_limitations``, which the template
  puts under its ``## Bias, Risks, and Limitations``; the body's own subsections are ``###``, siblings of
  the template's ``### Recommendations``): per bias category its verdict against the reference, its
  plain-language definition (:attr:`mrclens.categories.BiasCategory.definition`) and what the verdict means
  for a model trained on the data (:attr:`mrclens.verdicts.Reading.means`); a compact table of each
  category's difference from the reference with its interval and the band of "in line" it was read against,
  in one unit (:func:`mrclens.reports.glance.verdict_figure`: the band the report's first screen states);
  one short note on what the figures are; what MRCLens cannot see (the README's "How to read a verdict");
  and the provenance: MRCLens version, reader, reference, bootstrap settings and the sha256 of every input
  file recorded in the results;
* the recommendations (:func:`card_recommendations`, the template's ``bias_recommendations``): per
  category, what a user of the data does about its verdict (:attr:`mrclens.verdicts.Reading.users_advice`;
  for "more", what the dataset's authors can do too, the category's ``advice_more``);
* the whole section (:func:`card_markdown`): the template's heading, the body, ``### Recommendations``;
* a Croissant RAI fragment (:func:`rai_fragment`): ``rai:dataBiases`` (one statement of one or two
  sentences per bias category, :func:`bias_statements`), ``rai:dataLimitations`` (what the audit cannot
  see) and the figures behind each statement in ``mrclens:biasFigures`` (:func:`bias_figures`), under
  the Croissant 1.0 ``@context`` (:data:`mrclens.artifacts.card.CROISSANT_CONTEXT`) with ``mrclens:`` bound.

The Markdown is rendered from the templates ``card-body.md`` and ``card-recommendations.md``
(``mrclens/reports/templates``) by :mod:`mrclens.reports.markdown`: every text MRCLens did not write itself
(a model name, a plug-in's category or ablation name, a reference name, a warning, a file name) is escaped
on output (:func:`~mrclens.reports.markdown.md_text`, :func:`~mrclens.reports.markdown.md_code`): it reads as
the text it is, never as HTML (``<img onerror=…>``) or as Markdown that breaks the table (``|``). The RAI
fragment is JSON text and holds the names as they are.

The card names no per-test confidence level: a category's interval against the reference is family-wise
(Bonferroni over the tests read together, e.g. ``99.2857% CI (95% family-wise)``), and the card calls it a
"95 % interval" and says once what family-wise means; each interval's own level is in
``mrclens:biasFigures`` (:func:`interval_label`) and ``results.json``, with every ablation's and model-free
figure's figures.

Both are drafts for the dataset's authors to edit, and say so: a verdict is evidence about this
data read by a small baseline reader, not a certificate that the data is free of bias.
The files are written by :mod:`mrclens.artifacts.card` (:func:`write_dataset_card`).

Units: a category's difference to the reference on the drops route is the mean, over its ablations, of the
difference of their drops in percent of the baseline F1 (accuracy for multiple choice), each signed towards
the bias (:mod:`mrclens.scoring.against_reference`), in points, its band ``reference_band`` points; on the data
route a model-free figure's difference is stated as a planted share, percent of the questions
(:meth:`mrclens.artifacts.results.ModelFreeFigure.planted`), its band likewise (10 % of the questions).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mrclens.artifacts.card import CROISSANT_CONTEXT, FIGURES_PROPERTY, MRCLENS_VOCABULARY, card_paths, write_card
from mrclens.artifacts.layout import RESULTS_JSON
from mrclens.artifacts.results import CategoryResult, Results, read_results
from mrclens.categories import get_category, toward_bias
from mrclens.metrics.bootstrap import family_ci_label
from mrclens.reports.glance import (DROPS_PLANTED_LABEL, PLANTED_LABEL, REFERENCE_LABEL, Band, ReadingFigure,
                                   verdict_figure)
from mrclens.reports.markdown import Markdown, markdown, md_code, md_format, md_text, render_markdown
from mrclens.verdicts import (BASIS_NAMES, CANNOT_TELL, INCONCLUSIVE, MORE, READING_NAMES, UNDECIDED_NAMES,
                              WEAK_READER, Reading, basis, reading, undecided)


#: The longest ``rai:dataBiases`` statement (characters) that still gets what the verdict means as its second
#: sentence; the figures are in ``mrclens:biasFigures``.
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
def _level(results: Results) -> str:
    """The results' confidence level in percent (``95``): every interval of the card is stated at it."""
    return f"{100 * results.bootstrap.confidence:g}"


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


def _verdict_by(c: CategoryResult) -> str:
    """The verdict and what decided it (``more than SQuAD v1.1 (by the drops)``), the table's verdict cell."""
    by = f" (by the {basis(c.reference_basis).words})" if c.reference_basis in BASIS_NAMES else ""
    return category_verdict(c) + by


def _reading_of(c: CategoryResult) -> Reading:
    """The category's reading against the reference (:data:`mrclens.verdicts.NOT_COMPARED` without one; a name
    MRCLens does not know reads as inconclusive)."""
    return reading(c.reference_bias) if c.reference_bias in (*READING_NAMES, None) else INCONCLUSIVE


def category_meaning(c: CategoryResult) -> Markdown:
    """What the category's verdict means for someone who trains on or evaluates with the data, in one sentence
    (:attr:`mrclens.verdicts.Reading.means` with the category's :attr:`~mrclens.categories.BiasCategory.shortcut`):
    ``A model trained on this data may learn to pick the passage sentence most similar to the question about as
    often as one trained on SQuAD v1.1.`` (Markdown; the names in it escaped)."""
    return md_format(_reading_of(c).means, shortcut=get_category(c.category).shortcut,
                     ref=c.reference or "the reference")


def category_recommendation(c: CategoryResult) -> Markdown:
    """What a user of the data does about the category's verdict (:attr:`mrclens.verdicts.Reading.users_advice`),
    and for "more" what the dataset's authors can do (the category's ``advice_more``); Markdown."""
    read = _reading_of(c)
    text = md_format(read.users_advice, ref=c.reference or "the reference")
    if read is MORE:
        text = Markdown(f"{text} Dataset authors: {md_text(get_category(c.category).advice_more)}")
    return text


def category_difference(results: Results, c: CategoryResult) -> tuple[ReadingFigure | None, Band | None]:
    """The figure the category's verdict is stated by and the band of "in line" it was read against
    (:func:`mrclens.reports.glance.verdict_figure`: the report's first screen states the same)."""
    return verdict_figure(c, results.ablations, results.metric, results.model_free)


def _figure_cell(one: ReadingFigure | None) -> Markdown | str:
    """``rel. drop vs ref +23.0 [+10.5, +35.4]``: the figure's label (escaped: an ablation id may be a plug-in's)
    and its numbers, without the band (the band has its own column)."""
    if one is None:
        return "n/a"
    return Markdown(f"{md_text(one.label)} {one.number} {one.interval}")


def _notes(results: Results, shown: list[ReadingFigure | None]) -> list[Markdown]:
    """What the table's figures are, said once: each kind of figure it shows, the bands and the intervals."""
    ref, metric, level = md_text(reference_name(results)), md_text(results.metric), _level(results)
    labels = {f.label for f in shown if f is not None}
    notes = []
    if REFERENCE_LABEL in labels:
        notes.append(f"\"{REFERENCE_LABEL}\": how much more of its baseline {metric} the reader loses than on {ref} "
                     f"when the shortcut is disturbed or removed (points of percent of that score, the mean over the "
                     f"category's ablations; + is more of the shortcut).")
    if PLANTED_LABEL in labels:
        notes.append(f"\"{PLANTED_LABEL} N% of q.\": the data itself, without a model, offers as much more of the "
                     f"shortcut than {ref} as planting it in N % of the questions would.")
    if DROPS_PLANTED_LABEL in labels:
        notes.append(f"\"{DROPS_PLANTED_LABEL} N% of q.\": the reader loses more of its {metric} than on {ref} when "
                     f"the shortcut is disturbed or removed, as much more as planting the shortcut in N % of the "
                     f"questions makes it lose (the mean over the category's ablations; + is more of the shortcut).")
    if labels - {REFERENCE_LABEL, PLANTED_LABEL, DROPS_PLANTED_LABEL}:
        notes.append(f"Not compared with a reference: how much of its {metric} the reader loses under the ablation "
                     f"that probes the category best, in percent.")
    rules = ""
    compared = [c for c in results.categories if c.reference_bias in READING_NAMES]
    if compared:
        rules = ("\"In line\" means the interval lies inside the band; \"more\" or \"less\", wholly beyond it; "
                 "\"slightly\" more or less, inside it but clear of 0. ")
    if family_wise(results):
        rules += (f"The intervals are {level} % intervals, family-wise: all of them together hold with {level} % "
                  f"confidence. ")
    notes.append(f"{rules}Each verdict's figures are in the audit's {md_code(RESULTS_JSON)} and in "
                 f"{md_code(FIGURES_PROPERTY)} of the Croissant RAI fragment drafted with this section.")
    return [Markdown(n) for n in notes]


def family_wise(results: Results) -> bool:
    """Whether the categories' intervals against the reference are family-wise (wider than the results' level:
    Bonferroni over the tests read together), which the card says once instead of naming each interval's level."""
    return any(c.reference_confidence is not None and c.reference_confidence > results.bootstrap.confidence
               for c in results.categories if c.reference_bias in READING_NAMES)


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
    in ``mrclens:biasFigures``; without ``c``, that of the first compared category (the categories of one audit
    share it), else the results' plain level."""
    if c is None:
        c = next((x for x in results.categories if x.reference_confidence is not None), None)
    return family_ci_label(c.reference_confidence if c is not None else None, results.bootstrap.confidence)


# ---------------------------------------------------------------------------- the Croissant RAI fragment
def bias_statements(results: Results) -> list[str]:
    """One statement per bias category (``rai:dataBiases``), one or two sentences: the verdict, what decided it,
    the difference with its interval and the band of "in line" (:func:`category_difference`); then, where the
    statement stays within :data:`RAI_STATEMENT_CHARS`, what the verdict means for a model trained on the data
    (:func:`category_meaning`, as plain text). The intervals are named by the results' level only ("95 %
    interval"); their family-wise level and the figures behind each statement are in :func:`bias_figures`."""
    out = []
    for c in results.categories:
        text = f"{c.category} bias: {category_verdict(c)}"
        if c.reference_basis:
            words = basis(c.reference_basis).words if c.reference_basis in BASIS_NAMES else c.reference_basis
            text += f" (decided by the {words})"
        one, band = category_difference(results, c)
        if one is not None:
            text += f"; {one.label} {one.number} {one.interval} ({_level(results)} % interval)"
        if band is not None:
            text += f", \"in line\" within {band}"
        text += "."
        meaning = _reading_of(c).means.format(shortcut=get_category(c.category).shortcut,
                                              ref=c.reference or "the reference")
        if len(text) + 1 + len(meaning) <= RAI_STATEMENT_CHARS:
            text += " " + meaning
        out.append(text)
    return out


def bias_figures(results: Results) -> list[dict[str, Any]]:
    """The figures behind each ``rai:dataBiases`` statement (``mrclens:biasFigures``), one object per category
    in the statements' order: the verdict and its basis, the difference (points of percent of the baseline
    score, ``+`` towards the bias) with its interval and that interval's level and label, the smallest
    difference the audit sees (``mde``, 80 % power) and the band of "in line", the absolute evidence, and
    each compared ablation and model-free figure with its interval (``None`` where a figure is missing); ``figure``:
    the figure the verdict is stated by (:func:`category_difference`) as the card and the report print it
    (``label``, ``text``), its numbers, its interval's label and its band (``band``, ``band_unit``; ``None`` when
    it has none)."""
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
                    "difference_confidence": f.difference_confidence, "comparison": f.comparison, "role": f.role,
                    "band": f.band, "per_planted_pct": f.per_planted_pct}
                   for f in results.model_free if f.category == c.category]
        one, band = category_difference(results, c)
        level = (interval_label(results, c) if c.reference_bias is not None
                 else family_ci_label(None, results.bootstrap.confidence))
        out.append({"category": c.category, "definition": get_category(c.category).definition,
                    "figure": None if one is None else {"label": one.label, "text": one.text, "value": one.value,
                                                        "ci_low": one.low, "ci_high": one.high, "interval": level,
                                                        "band": None if band is None else band.width,
                                                        "band_unit": None if band is None else band.unit},
                    "verdict": c.reference_bias, "reference": c.reference, "basis": c.reference_basis,
                    "difference": c.reference_difference, "ci_low": c.reference_difference_ci_low,
                    "ci_high": c.reference_difference_ci_high, "confidence": c.reference_confidence,
                    "interval": interval_label(results, c) if c.reference_difference is not None else None,
                    "mde": c.reference_mde, "band": c.reference_band,
                    "per_planted_pct": c.reference_per_planted_pct, "evidence": c.evidence,
                    "unit": "points of percent of the baseline " + results.metric, "ablations": ablations,
                    "model_free": figures})
    return out


def rai_fragment(results: Results) -> dict[str, Any]:
    """The Croissant RAI fragment: ``{"@context", "rai:dataBiases", "rai:dataLimitations", "mrclens:biasFigures"}``.

    The ``@context`` is Croissant 1.0's with ``mrclens:`` bound to :data:`MRCLENS_VOCABULARY` and
    ``mrclens:biasFigures`` typed ``@json`` (one JSON literal, :func:`bias_figures`). The first limitation
    says that the statements are an automated draft to review, by which reader they were measured, what their
    intervals are and where their figures are."""
    level = _level(results)
    draft = (f"These statements were drafted by MRCLens {results.mrclens_version} from an automated audit "
             f"({results.created}) with the {reader_description(results)}; review and edit them before publishing: "
             f"they are not a certificate. Their figures are in {FIGURES_PROPERTY}."
             + (f" Their {level} % intervals are family-wise: together they hold with {level} % confidence."
                if family_wise(results) else ""))
    context = {**CROISSANT_CONTEXT, "mrclens": MRCLENS_VOCABULARY, FIGURES_PROPERTY: {"@type": "@json"}}
    return {"@context": context, "rai:dataBiases": bias_statements(results),
            "rai:dataLimitations": [draft, *limitations(results)], FIGURES_PROPERTY: bias_figures(results)}


# ---------------------------------------------------------------------------- the Markdown
def card_markdown(results: Results, source: str = RESULTS_JSON) -> str:
    """The whole Markdown "Bias, Risks, and Limitations" section as the Hugging Face dataset-card template
    lays it out: its ``##`` heading, :func:`card_body`, ``### Recommendations`` and :func:`card_recommendations`."""
    return ("## Bias, Risks, and Limitations\n\n" + card_body(results, source) + "\n### Recommendations\n\n"
            + card_recommendations(results))


def card_body(results: Results, source: str = RESULTS_JSON) -> str:
    """The section's body without a heading of its own (the template's ``bias_risks_limitations``; the template
    ``card-body.md``): the draft note, each category's verdict, definition and meaning, the table of differences
    and bands with one note on what they are, what MRCLens cannot see, and the provenance (``###`` subsections)."""
    shown, categories = [], []
    for c in results.categories:
        one, band = category_difference(results, c)
        shown.append(one)
        read = _reading_of(c)
        categories.append({"name": c.category, "verdict": category_verdict(c) if read.decided else read.name,
                           "verdict_by": _verdict_by(c), "means": category_meaning(c),
                           "difference": _figure_cell(one), "band": "n/a" if band is None else str(band)})
    b = results.bootstrap
    data = [i for i in results.inputs if i.sha256 and _is_data_role(i.role)]
    data = data or [i for i in results.inputs if i.sha256 and i.role == "set:original"]
    return render_markdown(
        "card-body.md", version=results.mrclens_version, created=results.created, reader=reader_description(results),
        reference=reference_name(results), compared=any(c.reference_bias is not None for c in results.categories),
        categories=categories, level=_level(results), notes=_notes(results, shown) if categories else [],
        limitations=limitations(results), warnings=results.warnings, source=source,
        bootstrap=markdown(f"{b.n_resamples:,} resamples, {_level(results)}% confidence, seed {b.seed}"),
        data=[{"role": i.role, "file": Path(i.file).name, "sha256": i.sha256} for i in data])


def card_recommendations(results: Results) -> str:
    """The section's recommendations (the template's ``bias_recommendations``; the template
    ``card-recommendations.md``): per category, its verdict and what a user of the data does about it
    (:func:`category_recommendation`), then the reminder that a verdict is not a certificate."""
    categories = [{"name": c.category, "verdict": category_verdict(c), "advice": category_recommendation(c)}
                  for c in results.categories]
    return render_markdown("card-recommendations.md", categories=categories, reader=reader_description(results),
                           reference=reference_name(results))


def _is_data_role(role: str) -> bool:
    """Whether an input of this role is the audited data itself (``train``, ``dev``, multiple-choice
    parts), not a derived file (``manifest``, ``set:…``, ``predictions:…``, another draw's files)."""
    return role not in ("manifest", "reference") and ":" not in role
