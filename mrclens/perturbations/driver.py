"""Write the original, truncated and perturbed evaluation sets and the manifest.

CheckList-style (Ribeiro et al. 2020): generating perturbed sets is separate from predicting and
scoring, so any model's predictions can be scored on the files written here. Source of the
ablations: Zhong, Wang & Xing, "MRCLens", DataPerf@ICML 2022; exact rules: MRCLens issue 3.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Iterable, Sequence


from mrclens import __version__
from mrclens.artifacts.folders import PERTURB, write_folder
from mrclens.artifacts.layout import set_file_name
from mrclens.artifacts.layout import MANIFEST
from mrclens.artifacts.manifest import (AblationEntry, PerturbationManifest, SetEntry, SourceRecord, TRUNCATION_RULES,
                                        write_manifest)
from mrclens.errors import DataError, MRCLensError, Msg, Problem
from mrclens.nlp import refuse_long_contexts
from mrclens.io_utils import atomic_write_bytes, gc_paused, sha256_file
from mrclens.parsing import parse_texts, pipeline_fingerprint_for
from mrclens.perturbations.base import ExampleParse, answer_spans, make_rng
from mrclens.perturbations.contract import apply_ablation, prepare_resources
from mrclens.perturbations.controls import InsertionPool
from mrclens.perturbations.registry import ABLATIONS, BASELINE_SET, resolve_ids
from mrclens.perturbations.truncation import DEFAULT_RULE, truncate_dataset
from mrclens.plugins import ABLATIONS_GROUP
from mrclens.progress import progress as progress_bar
from mrclens.seeds import derived_seed
from mrclens.squad import Article, Dataset
from mrclens.formats import load_dataset
from mrclens.units import sentence_units

FORMATS = ("json", "jsonl")


def resolve_ablations(ablations: Iterable[str] | str | None) -> list[str]:
    """Registered ablation ids to run, in registry order (``None`` → all), each ablation's matched control included.

    An insertion ablation always brings its control (``e1`` → ``e1, c1``), since its drop is read
    against the control's (:mod:`mrclens.perturbations.controls`).

    Args:
        ablations: ids like ``["e1", "e3"]`` or a comma-separated string ``"e1,e3"``.

    Raises:
        PluginError: an id names a plug-in ablation that could not be loaded (:mod:`mrclens.plugins`).
        MRCLensError: an id is not registered (the message lists the known ids).
    """
    return resolve_ids(ablations, ABLATIONS, group=ABLATIONS_GROUP)


def to_jsonl(dataset: Dataset) -> str:
    """The Hugging Face ``datasets`` flat form: one JSON object per question per line.

    Each line is ``{"id", "title", "context", "question", "answers": {"text": [...],
    "answer_start": [...]}}`` (character offsets), as loaded by ``datasets.load_dataset("json",
    ...)`` and used by the ``squad`` dataset script.
    """
    lines = []
    for article, paragraph, q in dataset.iter_questions():
        lines.append(json.dumps({
            "id": q.id,
            "title": article.title,
            "context": paragraph.context,
            "question": q.question,
            "answers": {"text": [a.text for a in q.answers], "answer_start": [a.answer_start for a in q.answers]},
        }, ensure_ascii=False))
    return "\n".join(lines) + ("\n" if lines else "")


def _write_set(dataset: Dataset, out_dir: Path, name: str, formats: Sequence[str], protect) -> str:
    file = set_file_name(name)
    atomic_write_bytes(out_dir / file, json.dumps(dataset.to_json(), ensure_ascii=False).encode("utf-8"), protect=protect)
    if "jsonl" in formats:
        atomic_write_bytes(out_dir / set_file_name(name, "jsonl"), to_jsonl(dataset).encode("utf-8"), protect=protect)
    return file


def _n_questions(dataset: Dataset) -> int:
    return sum(len(p.questions) for _, p in dataset.iter_paragraphs())


def perturb_dataset(
    dataset: Dataset | str | os.PathLike,
    out_dir: str | os.PathLike,
    *,
    ablations: Iterable[str] | str | None = None,
    seed: int = 0,
    cache_dir: str | Path | None = None,
    formats: Sequence[str] = ("json",),
    progress: bool = True,
    n_process: int = 1,
    force: bool = False,
    draw: int = 0,
    truncation: str = DEFAULT_RULE,
) -> PerturbationManifest:
    """Write the unperturbed and perturbed evaluation sets of ``dataset`` to ``out_dir``.

    Files (SQuAD schema, same question ids as the input): ``original.json``,
    ``original-truncated.json`` (:mod:`mrclens.perturbations.truncation`), one ``<id>.json`` per
    requested ablation (each on its evaluation set), and ``manifest.json``
    (:mod:`mrclens.artifacts.manifest`: per set its file and size; per ablation its metadata,
    counts of changed and unchanged-by-reason items and, per question id, what changed). With ``"jsonl"``
    in ``formats`` every set also gets a ``.jsonl`` twin (:func:`to_jsonl`). The files are
    written into a staging directory and moved into ``out_dir`` only when all were written
    (:func:`mrclens.artifacts.folders.write_folder`), the manifest last: a failure leaves no partial
    output (and no ``out_dir`` it created); the set files of an earlier run that this run does not
    write are then removed, with a warning (:data:`mrclens.artifacts.folders.PERTURB`). The same input and seed give byte-identical files.

    Contexts are parsed once each with spaCy's ``senter`` (tokens + sentences), questions once
    each with tok2vec + tagger + attribute_ruler (tokens + POS), through the disk cache of
    :func:`mrclens.parsing.parse_texts`.

    Args:
        dataset: a loaded :class:`~mrclens.squad.Dataset` or the path of a SQuAD file.
        out_dir: output directory (created if missing).
        ablations: ablation ids (list or ``"e1,e3"``); ``None`` → all registered.
        seed: global seed; each random choice uses a generator seeded from (seed, ablation id,
            paragraph id = id of the paragraph's first question).
        cache_dir: parse cache directory (default :func:`mrclens.parsing.default_cache_dir`;
            ``False`` for none).
        formats: ``("json",)`` or ``("json", "jsonl")``.
        progress: show progress (:mod:`mrclens.progress`) for parsing and perturbing.
        n_process: spaCy worker processes.
        force: write into a non-empty ``out_dir`` that does not hold an earlier ``perturb``
            output (its same-named files are replaced).
        draw: which draw of the random choices to write (issue 16): draw ``k`` seeds every
            generator with :func:`mrclens.seeds.derived_seed` ``(seed, "draw", k)`` instead of
            ``seed`` (draw 0 is ``seed`` itself, byte-identical to a run without ``draw``). An
            ablation and its control in one draw use the same positions. The original and
            truncated sets do not depend on the draw. The manifest records ``draw`` and
            ``draw_seed`` for ``k >= 1``.
        truncation: which qualifying question of each paragraph the truncated set keeps, ``"random"``
            (seeded by ``seed``, the same in every draw) or ``"first"``
            (:mod:`mrclens.perturbations.truncation`); recorded in the manifest.

    Returns:
        the manifest written to ``manifest.json``.

    Raises:
        DataError: the file breaks the SQuAD schema (from :func:`mrclens.formats.load_dataset`), the
            dataset has no question (nothing is written, as ``mrclens stats`` refuses it), or a context is longer
            than MRCLens parses (:func:`mrclens.nlp.refuse_long_contexts`).
        FileNotFoundError: the file does not exist.
        MRCLensError: an unknown ablation id or format; an output path is the input file.
        OutputError: ``out_dir`` cannot be written, or holds something else and ``force`` is off.
        CacheError: the cache directory is not usable.
        PluginError: a plug-in's ablation cannot be loaded, raised, or returned an output that breaks the
            rules of :mod:`mrclens.perturbations.contract` (dropped or added a question, moved an answer
            off its ``answer_start``, no or a malformed change record): the message names the plug-in,
            its distribution and the first offending question id; nothing is written.
        InvariantError: a built-in ablation broke those rules, e.g. an answer offset (a bug; never expected).
    """
    with gc_paused():
        return _perturb(dataset, out_dir, ablations=ablations, seed=seed, cache_dir=cache_dir, formats=formats,
                        progress=progress, n_process=n_process, force=force, draw=draw, truncation=truncation)


def _warn_if_not_sentence_split(dataset: Dataset, truncated) -> None:
    """Warn when most paragraphs are one sentence and the truncated set is empty: the text is
    most likely not English (e.g. Chinese), which the English sentence splitter cannot split."""
    single = (truncated.dropped or {}).get("single_sentence", 0)
    total = truncated.paragraphs_total or 0
    if total and single > total / 2 and not any(True for _ in truncated.dataset.iter_questions()):
        logging.getLogger("mrclens.perturb").warning(
            f"{dataset.source or 'the dataset'}: {single:,} of {total:,} paragraphs are a single sentence "
            f"and the truncated set is empty, so e1, e2, e6-e8 have nothing to perturb; the text is most likely "
            f"not English, which MRCLens's English spaCy pipeline cannot split into sentences")


def _perturb(dataset, out_dir, *, ablations, seed, cache_dir, formats, progress, n_process, force=False,
             draw=0, truncation=DEFAULT_RULE) -> PerturbationManifest:
    ids = resolve_ablations(ablations)
    if not isinstance(draw, int) or draw < 0:
        raise MRCLensError(f"draw must be a whole number >= 0, got {draw!r}")
    if truncation not in TRUNCATION_RULES:
        raise MRCLensError(f"truncation must be one of {', '.join(TRUNCATION_RULES)}, got {truncation!r}")
    base_seed = seed
    seed = derived_seed(seed, "draw", draw)
    formats = tuple(formats)
    bad = [f for f in formats if f not in FORMATS]
    if bad or "json" not in formats:
        raise MRCLensError(f"formats must include 'json' and be among {FORMATS}, got {formats}")
    if not isinstance(dataset, Dataset):
        dataset = load_dataset(dataset)
    if not any(True for _ in dataset.iter_questions()):  # as `stats` and `check` refuse it, before any file
        raise DataError([Problem(dataset.source or "<memory>", Msg.NO_QUESTIONS.format(what="perturbed sets"))])
    refuse_long_contexts(dataset)  # before any file, naming the file, the article and the paragraph (issue 55)
    protect = (dataset.source,) if dataset.source else ()
    with write_folder(out_dir, PERTURB, force=force, protect=protect, last=(MANIFEST,)) as stage:
        return _write_all(dataset, stage, ids=ids, seed=seed, base_seed=base_seed, draw=draw, cache_dir=cache_dir,
                          formats=formats, progress=progress, n_process=n_process, truncation=truncation)


def _write_all(dataset, out: Path, *, ids, seed, base_seed, draw, cache_dir, formats, progress,
               n_process, truncation=DEFAULT_RULE) -> PerturbationManifest:
    """Write every set of ``dataset`` into ``out``; ``seed`` is the draw's seed, ``base_seed`` the one given."""
    protect = ()  # ``out`` is a fresh staging directory; the input is protected when files move out of it

    contexts = [p.context for _, p in dataset.iter_paragraphs()]
    questions = [q.question for _, _, q in dataset.iter_questions()]
    ctx_parses = dict(zip(contexts, parse_texts(contexts, sentences=True, cache_dir=cache_dir, n_process=n_process,
                                                 progress="parsing contexts" if progress else False)))
    q_list = parse_texts(questions, pos=True, cache_dir=cache_dir, n_process=n_process,
                         progress="parsing questions" if progress else False)
    q_parses = {q.id: parse for (_, _, q), parse in zip(dataset.iter_questions(), q_list)}

    truncated = truncate_dataset(dataset, ctx_parses, truncation, base_seed)
    _warn_if_not_sentence_split(dataset, truncated)
    sets = {"full": dataset, "truncated": truncated.dataset}

    source = SourceRecord(dataset.source, None)
    if dataset.source and Path(dataset.source).is_file():
        source.sha256 = sha256_file(dataset.source)
    fingerprint = " + ".join(pipeline_fingerprint_for(**flags, cache_dir=cache_dir) for flags in ({"sentences": True}, {"pos": True}))
    manifest = PerturbationManifest(
        mrclens_version=__version__,
        seed=base_seed,
        draw=draw,
        draw_seed=seed if draw else None,
        source=source,
        pipeline=fingerprint,
        sets={
            "original": SetEntry(_write_set(dataset, out, "original", formats, protect), _n_questions(dataset)),
            "original-truncated": SetEntry(
                _write_set(truncated.dataset, out, "original-truncated", formats, protect),
                _n_questions(truncated.dataset),
                paragraphs_total=truncated.paragraphs_total,
                dropped=truncated.dropped,
                rule=truncation,
            ),
        },
        ablations={},
    )

    full_units = {}
    for _, p in dataset.iter_paragraphs():
        if p.questions and id(p) not in full_units:
            spans = [s for q in p.questions for s in answer_spans(q)]
            full_units[id(p)] = sentence_units(p.context, ctx_parses[p.context], spans)

    pool = InsertionPool.build(dataset, ctx_parses, q_parses, seed) if any(ABLATIONS[a].control_of for a in ids) else None
    # what an ablation (or its control) builds once from the whole set, e.g. e10's decoy answers
    resources: dict[str, Any] = {}
    for aid in ids:
        target = ABLATIONS[ABLATIONS[aid].control_of or aid]
        if target.prepare is not None and target.id not in resources:
            resources[target.id] = prepare_resources(target, dataset, ctx_parses, q_parses, seed, cache_dir)
            extra = getattr(resources[target.id], "pipeline", None)
            if isinstance(extra, str) and extra and extra not in manifest.pipeline:
                manifest.pipeline += " + " + extra
    total = sum(sum(1 for _, p in sets[ABLATIONS[a].eval_set].iter_paragraphs()) for a in ids)
    bar = progress_bar(total=total, desc="perturbing", unit="paragraph", enabled=progress)
    for aid in ids:
        ablation = ABLATIONS[aid]
        source_set = sets[ablation.eval_set]
        items: dict[str, Any] = {}
        new_articles = []
        for article in source_set.articles:
            new_pars = []
            for p in article.paragraphs:
                bar.update(1)
                if not p.questions:
                    new_pars.append(p)
                    continue
                if ablation.eval_set == "truncated":
                    units = truncated.units[p.questions[0].id]
                else:
                    units = full_units[id(p)]
                parsed = ExampleParse(ctx_parses[p.context], {q.id: q_parses[q.id] for q in p.questions}, units,
                                      pool if ablation.control_of else None, resources)
                # a control draws its positions with its ablation's generator (same unit, same offset)
                new_p, records = apply_ablation(ablation, p, parsed, make_rng(seed, ablation.control_of or aid, p.questions[0].id))
                for q in p.questions:
                    items[q.id] = records[q.id]
                new_pars.append(new_p)
            new_articles.append(Article(article.title, new_pars))
        perturbed = Dataset(new_articles, dataset.version, dataset.source)
        file = _write_set(perturbed, out, aid, formats, protect)
        unchanged_counts: dict[str, int] = {}
        for rec in items.values():
            if not rec["changed"]:
                unchanged_counts[rec["reason"]] = unchanged_counts.get(rec["reason"], 0) + 1
        manifest.ablations[aid] = AblationEntry(id=aid,
            name=ablation.name,
            category=ablation.category,
            eval_set=ablation.eval_set,
            baseline_set=BASELINE_SET[ablation.eval_set],
            description=ablation.description,
            bias_signal=ablation.bias_signal,
            file=file,
            n=len(items),
            changed=sum(1 for r in items.values() if r["changed"]),
            unchanged=dict(sorted(unchanged_counts.items())),
            items=items,
            control_of=ablation.control_of,
            no_answer_rule=ablation.no_answer_rule,
        )
    bar.close()
    write_manifest(out, manifest, protect=protect)
    return manifest
