"""``mrclens filter``: the data without the questions that carry chosen shortcuts, in the format it was read in
(issue 56, item 3).

After a verdict ("more Similarity bias than SQuAD"), the per-question evidence
(:mod:`mrclens.artifacts.shortcut_questions`, computed by :func:`mrclens.stats.evidence.shortcut_evidence` from the
data alone) says which questions carry each shortcut. :func:`filter_data` writes

* ``keep="unflagged"`` (the default): the data **without** the questions flagged in any of the chosen bias
  categories — with every category chosen, a "hard" evaluation split that no known shortcut answers (the
  filtering AFLite does with a model's features, Le Bras et al. 2020, "Adversarial Filters of Dataset Biases",
  here with the shortcuts' own evidence);
* ``keep="flagged"``: only those questions (an "easy" split, to see what the shortcut answers);

in the format of the input (:func:`output_format`: SQuAD JSON, flat JSON Lines or JSON, parquet, a Hugging Face
``save_to_disk`` folder), with a manifest beside it (:mod:`mrclens.artifacts.filter_manifest`: what was removed and
why, the counts, the input's sha256). Unanswerable questions (SQuAD v2.0) carry no evidence and are never
flagged. A paragraph left without questions is left out, and an article without paragraphs.

Everything is checked before anything is written: the output is not the input (nor inside an input folder), the
evidence file (when given) describes exactly the questions of the data, the categories exist. The input is never
changed; both files are written atomically.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from mrclens.artifacts.filter_manifest import FilterManifest, RemovedQuestion, manifest_path, write_filter_manifest
from mrclens.artifacts.shortcut_questions import ShortcutQuestion, read_shortcut_questions
from mrclens.categories import CATEGORIES
from mrclens.errors import DataError, MRCLensError, Problem
from mrclens.formats import Loaded, read, write
from mrclens.squad import Article, Dataset, Paragraph

#: What :func:`filter_data` keeps: the questions flagged in none of the chosen categories, or those flagged in one.
KEEP = ("unflagged", "flagged")
#: The output format of each input kind (``Loaded.format``, ``Loaded.container``) that MRCLens can write back
#: (:func:`mrclens.formats.write`'s ``to``); a flat JSON file (a list of records) is written as such.
_SAME_FORMAT = {("squad", "json"): "squad", ("hf-flat", "jsonl"): "jsonl", ("hf-flat", "json"): "json-list",
                ("hf-flat", "parquet"): "parquet", ("hf-flat", "save_to_disk"): "hf"}


@dataclass
class FilterResult:
    """What :func:`filter_data` did: the subset, the output's format and path, and the manifest written beside it."""

    dataset: Dataset
    out: Path
    to: str
    manifest: FilterManifest
    manifest_file: Path


def output_format(loaded: Loaded) -> str:
    """The format the data was read in, as :func:`mrclens.formats.write` names it (``"squad"``, ``"jsonl"``,
    ``"parquet"``, ``"hf"``; ``"json-list"`` for a flat JSON file of records).

    Raises:
        MRCLensError: a format MRCLens reads but does not write (MRQA, Natural Questions): the message names
            ``--to`` and ``mrclens convert``.
    """
    got = _SAME_FORMAT.get((loaded.format, loaded.container))
    if got is None:
        raise MRCLensError(f"{loaded.dataset.source or 'the data'} was read as {loaded.describe()}, which MRCLens "
                           "does not write back; choose the output's format with --to (squad, jsonl, parquet, hf) "
                           "or convert it first (mrclens convert IN OUT --to squad)")
    return got


def flagged(rows: Sequence[ShortcutQuestion], categories: Sequence[str]) -> dict[str, list[str]]:
    """Question id → the chosen ``categories`` its evidence flags (only ids with at least one), in report order."""
    chosen = set(categories)
    out = {}
    for row in rows:
        hits = [c for c in row.flagged_categories() if c in chosen]
        if hits:
            out[row.id] = hits
    return out


def subset(dataset: Dataset, keep_ids: set[str]) -> Dataset:
    """``dataset`` with only the questions whose id is in ``keep_ids`` (file order kept; paragraphs and articles
    left without questions are left out; ``source`` kept, so that writing never overwrites the input)."""
    articles = []
    for article in dataset.articles:
        paragraphs = [Paragraph(p.context, [q for q in p.questions if q.id in keep_ids]) for p in article.paragraphs]
        paragraphs = [p for p in paragraphs if p.questions]
        if paragraphs:
            articles.append(Article(article.title, paragraphs))
    return replace(dataset, articles=articles, notes=[])


def check_evidence(rows: Sequence[ShortcutQuestion], dataset: Dataset, source: str) -> None:
    """Raise :class:`~mrclens.errors.DataError` (naming ``source`` and the first ids) unless ``rows`` describe
    exactly the questions of ``dataset``: the evidence of another file, or of an edited one, would filter the
    wrong questions."""
    data_ids = {q.id for _, _, q in dataset.iter_questions()}
    row_ids = [r.id for r in rows]
    problems = []
    known = set(row_ids)
    missing = [i for i in data_ids if i not in known]
    extra = [i for i in row_ids if i not in data_ids]
    if missing:
        problems.append(Problem(source, f"holds no evidence for {len(missing):,} question(s) of the data, e.g. "
                                        f"{', '.join(sorted(missing)[:3])}: it is the evidence of another file or of "
                                        "an earlier version (write it again: mrclens stats DATA --evidence FILE)"))
    if extra:
        problems.append(Problem(source, f"holds {len(extra):,} question id(s) the data does not, e.g. "
                                        f"{', '.join(extra[:3])}: it is the evidence of another file"))
    if problems:
        raise DataError(problems)


def _same_path(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    pa, pb = Path(a).resolve(), Path(b).resolve()
    return pa == pb or (pa.exists() and pb.exists() and os.path.samefile(pa, pb))


def check_output(source: str | os.PathLike, out: str | os.PathLike) -> None:
    """Raise :class:`~mrclens.errors.MRCLensError` when writing ``out`` (or its manifest) could touch the input
    ``source``: the same file, a file inside an input folder, or an input folder inside the output."""
    src, dst = Path(source).resolve(), Path(out).resolve()
    for target in (dst, manifest_path(dst)):
        if _same_path(src, target) or (src.is_dir() and src in target.parents) or (dst in src.parents):
            raise MRCLensError(f"the output {out} would overwrite the input {source}; give another path "
                               "(mrclens never changes its input)")


def sha256_of(path: str | os.PathLike) -> str:
    """The sha256 of a file, or of a folder's files (sorted by relative path, name and bytes)."""
    h = hashlib.sha256()
    p = Path(path)
    files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
    for f in files:
        if p.is_dir():
            h.update(str(f.relative_to(p)).encode("utf-8") + b"\0")
        with open(f, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


def filter_data(source: str | os.PathLike, out: str | os.PathLike, categories: Sequence[str] | None = None, *,
                keep: str = "unflagged", evidence: str | os.PathLike | None = None, to: str | None = None,
                split: str | None = None, cache_dir: str | os.PathLike | bool | None = None,
                progress: bool = False) -> FilterResult:
    """Write the questions of ``source`` that the per-question evidence does not flag in ``categories`` (or, with
    ``keep="flagged"``, only those it flags) to ``out``, in the input's format, and the manifest beside it.

    Args:
        source: the data (any span format :func:`mrclens.formats.read` reads from a path).
        out: the output path (a folder for ``save_to_disk`` data).
        categories: bias category names (:data:`mrclens.categories.CATEGORIES`); ``None``: all of them.
        keep: ``"unflagged"`` or ``"flagged"`` (:data:`KEEP`).
        evidence: a ``shortcut-questions.jsonl`` of this data (``mrclens stats DATA --evidence FILE``, or an audit's);
            ``None``: computed here (:func:`mrclens.stats.evidence.shortcut_evidence`, spaCy parses cached).
        to: the output format (``squad``, ``jsonl``, ``parquet``, ``hf``); ``None``: the input's
            (:func:`output_format`).
        split: the split of a ``DatasetDict`` folder.

    Returns:
        a :class:`FilterResult`.

    Raises:
        MRCLensError: an unknown category or ``keep``, an output that would overwrite the input, an input format
            MRCLens does not write without ``to``.
        DataError: the data has errors, or the evidence file describes other questions.
        ArtifactError: the evidence file is damaged or of a newer format.
    """
    names = list(CATEGORIES)
    chosen = list(names if not categories else categories)
    unknown = [c for c in chosen if c not in names]
    if unknown:
        raise MRCLensError(f"unknown bias categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}; "
                           f"choose from {', '.join(names)}")
    if keep not in KEEP:
        raise MRCLensError(f"keep must be one of {', '.join(KEEP)}, got {keep!r}")
    check_output(source, out)
    loaded = read(source, split=split)
    if loaded.errors:
        raise DataError(loaded.errors)
    dataset = loaded.dataset
    fmt = to or output_format(loaded)
    if evidence is not None:
        check_output(evidence, out)
        rows = read_shortcut_questions(evidence)
        check_evidence(rows, dataset, str(evidence))
    else:
        from mrclens.stats.evidence import shortcut_evidence

        rows = shortcut_evidence(dataset, cache_dir=cache_dir, progress=progress)
    hits = flagged(rows, chosen)
    ids = [q.id for _, _, q in dataset.iter_questions()]
    kept = {i for i in ids if (i in hits) == (keep == "flagged")}
    result = subset(dataset, kept)
    titles = {q.id: a.title for a, _, q in dataset.iter_questions()}
    removed = [RemovedQuestion(i, titles[i], hits.get(i, [])) for i in ids if i not in kept]
    manifest = FilterManifest(
        input=str(source), input_sha256=sha256_of(source), input_format=loaded.describe(), output=str(out),
        output_format=fmt, evidence=str(evidence) if evidence is not None else "computed from the data",
        categories=chosen, keep=keep, questions_read=len(ids), questions_kept=len(kept),
        removed_by_category={c: sum(1 for r in removed if c in r.categories) for c in chosen},
        removed=removed)
    written = _write(result, out, fmt, source)
    manifest_file = write_filter_manifest(manifest_path(written), manifest, protect=(source,))
    return FilterResult(result, written, fmt, manifest, manifest_file)


def _write(dataset: Dataset, out: str | os.PathLike, fmt: str, source: str | os.PathLike) -> Path:
    if fmt == "json-list":
        import json

        from mrclens.formats.hf_flat import to_records
        from mrclens.io_utils import atomic_write_bytes

        text = json.dumps(list(to_records(dataset, True)), ensure_ascii=False)
        return atomic_write_bytes(out, text.encode("utf-8"), protect=(source,))
    return write(dataset, out, to=fmt, extra_columns=fmt != "squad")
