"""Reading multiple-choice data: one prompt, several candidate endings, one correct (CODAH-style; issue 20).

The data type of MRCLens's second task beside span extraction (:mod:`mrclens.squad`), and its
readers, beside the span formats of :mod:`mrclens.formats` (they need only
:mod:`mrclens.formats.base`, :mod:`mrclens.errors` and :mod:`mrclens.io_utils`). A dataset is a list
of :class:`MCQuestion` (id, prompt, endings, 0-based label, question categories). Two file forms
are read, validated with the same kind of errors as SQuAD files (:class:`~mrclens.errors.DataError`
naming the file, the line and the question id):

* **CODAH TSV** (Chen et al. 2019, "CODAH: An Adversarially-Authored Question Answering Dataset
  for Common Sense", RepEval; ``github.com/Websail-NU/CODAH``): no header, 7 tab-separated
  columns — category letters (``i`` Idioms, ``r`` Reference, ``p`` Polysemy, ``n`` Negation,
  ``q`` Quantitative, ``o`` Other; concatenated when several apply, empty in 10 released rows),
  prompt, endings A–D, gold label 0–3. CODAH has no question ids, so a question's id is
  ``codah-`` + the first 12 hex digits of sha256 of prompt and endings (the same question gets the
  same id in ``full_data.tsv`` and in every fold file); an exact repeat within one file gets
  ``-2``, ``-3``, … and a warning.
* **Multiple-choice JSON Lines**: one object per line, ``{"id": str, "prompt": str,
  "endings": [str, ...], "label": int, "category": str | [str, ...]}`` (``category`` optional;
  at least 2 endings; an empty prompt is allowed, the answer-only ablation writes one). This is
  also the form MRCLens writes (:func:`write_jsonl`), e.g. the perturbed sets.

The official CODAH cross-validation split (``cv_split/fold_k/{train,dev,test}.tsv``) is read by
:func:`read_folds` (:func:`mrclens.multiple_choice.folds.make_folds` makes the same kind of split
from one file). :func:`sniff_mc` tells a multiple-choice file or folder from its first line;
:func:`is_mc_input` is what ``mrclens stats`` / ``check`` read as multiple-choice input. They are the
multiple-choice task's ``sniff``, ``sniff_input`` and ``load_set`` (:data:`mrclens.formats.LOAD_SET`).

Examples:
    >>> q = parse_record({"id": "x1", "prompt": "The man was tired. He", "endings": ["slept.", "ran a marathon."],
    ...                   "label": 0, "category": "Other"}, "demo.jsonl", 1)
    >>> q.correct_ending, q.categories
    ('slept.', ('Other',))
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from mrclens.errors import DataError, FormatMsg, MRCLensError, Problem
from mrclens.formats.base import RecordLog, iter_jsonl, open_text, read_text
from mrclens.invisible import has_invisible, visible
from mrclens.io_utils import atomic_write_bytes

if TYPE_CHECKING:
    import numpy as np

#: CODAH's category letters and names (Chen et al. 2019, Table 2), in the paper's order.
CODAH_CATEGORIES = {"i": "Idioms", "r": "Reference", "p": "Polysemy", "n": "Negation", "q": "Quantitative",
                    "o": "Other"}
#: File forms :func:`load_mc_dataset` reads.
MC_FORMATS = ("codah-tsv", "mc-jsonl")
_FOLD_DIR = re.compile(r"^fold_(\d+)$")


class McMsg:
    """Message templates of the multiple-choice readers (``{line}`` is 1-based)."""

    TSV_COLUMNS = "line {line}: expected 7 tab-separated columns (categories, prompt, 4 endings, label), got {n}"
    TSV_LABEL = "line {line}: the label {value!r} is not one of 0, 1, 2, 3"
    TSV_CATEGORY = "line {line}: unknown category letter(s) {letters!r} (CODAH uses i, r, p, n, q, o)"
    EMPTY_ENDING = "ending {index} is empty"
    ENDING_NOT_TEXT = "ending {index} is not a string (got {value!r})"
    FEW_ENDINGS = "needs at least 2 endings, got {n}"
    LABEL_RANGE = "label {label!r} is not an index into its {n} endings (0 to {last})"
    DUPLICATE_ID = "question id {qid!r} appears again (first on line {first})"
    REPEATED_ROW = "the same prompt and endings as line {first}; given the id {qid}"
    EMPTY = "no question in the file"
    NOT_MC = ("{path}: not multiple-choice data MRCLens reads (CODAH TSV, multiple-choice JSON Lines with "
              "\"prompt\"/\"endings\"/\"label\", or a CODAH folder with cv_split/fold_k/)")
    NO_FOLDS = "{path}: no fold_k/ folder with train/dev/test files"
    FOLD_FILE = "{path}: fold {fold} lacks {name}.tsv or {name}.tsv.gz"


@dataclass(frozen=True)
class MCQuestion:
    """One multiple-choice question.

    Attributes:
        id: question id (unique within a dataset).
        prompt: the text the endings continue (may be empty: the answer-only ablation).
        endings: the candidate endings, in file order.
        label: 0-based index of the correct ending.
        categories: category names (CODAH: ``"Idioms"`` … ``"Other"``), possibly empty.
    """

    id: str
    prompt: str
    endings: tuple[str, ...]
    label: int
    categories: tuple[str, ...] = ()

    @property
    def correct_ending(self) -> str:
        return self.endings[self.label]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "prompt": self.prompt, "endings": list(self.endings), "label": self.label}
        if self.categories:
            out["category"] = list(self.categories)
        return out


@dataclass
class MCDataset:
    """A multiple-choice dataset (one file or one part of a split).

    Attributes:
        questions: the questions, in file order.
        source: the path it was read from, if any.
        format: ``"codah-tsv"`` or ``"mc-jsonl"`` (``None`` when built in memory).
        notes: warnings found while reading (repeated rows).
    """

    questions: list[MCQuestion]
    source: str | None = None
    format: str | None = None
    notes: list[Problem] = field(default_factory=list, compare=False, repr=False)

    task = "multiple_choice"

    def __len__(self) -> int:
        return len(self.questions)

    def ids(self) -> list[str]:
        return [q.id for q in self.questions]

    def by_id(self) -> dict[str, MCQuestion]:
        return {q.id: q for q in self.questions}

    def counts(self) -> dict[str, int]:
        """``{"questions": n, "endings": total endings}``."""
        return {"questions": len(self.questions), "endings": sum(len(q.endings) for q in self.questions)}

    def category_counts(self) -> dict[str, int]:
        """Questions per category name (a question with two categories counts in both; ``"(none)"``
        for questions without one), categories in CODAH's order, then others alphabetically."""
        counts: dict[str, int] = {}
        for q in self.questions:
            for c in q.categories or ("(none)",):
                counts[c] = counts.get(c, 0) + 1
        order = list(CODAH_CATEGORIES.values())
        return dict(sorted(counts.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order), kv[0])))

    def subset(self, ids: Iterable[str]) -> "MCDataset":
        """The questions with these ids, in this dataset's order."""
        keep = set(ids)
        return MCDataset([q for q in self.questions if q.id in keep], self.source, self.format)

    def visible(self) -> "MCDataset":
        """The view of the dataset the statistics read (:mod:`mrclens.invisible`): every prompt and ending
        without its invisible format characters (Unicode Cf: soft hyphen, zero-width space, direction marks,
        BOM), ids, labels and categories unchanged; ``self`` when no text holds one. The data is never changed.

        Examples:
            >>> MCDataset([MCQuestion("a", "Wh\u00adat next?", ("It\u200b slept.", "Ran."), 0)]).visible().questions[0]
            MCQuestion(id='a', prompt='What next?', endings=('It slept.', 'Ran.'), label=0, categories=())
        """
        if not any(has_invisible(q.prompt) or any(has_invisible(e) for e in q.endings) for q in self.questions):
            return self
        questions = [replace(q, prompt=visible(q.prompt), endings=tuple(visible(e) for e in q.endings))
                     for q in self.questions]
        return MCDataset(questions, self.source, self.format, self.notes)

    def labels(self) -> "np.ndarray":
        """``(n,)`` int64 gold labels (NumPy is imported here, so that reading data needs none)."""
        import numpy as np

        return np.fromiter((q.label for q in self.questions), dtype=np.int64, count=len(self.questions))


@dataclass
class Fold:
    """One cross-validation fold: train on ``train``, choose the epoch on ``dev``, evaluate on ``test``."""

    name: str
    train: MCDataset
    dev: MCDataset
    test: MCDataset


def codah_id(prompt: str, endings: Iterable[str]) -> str:
    """The id of a CODAH question: ``"codah-"`` + sha256 of prompt and endings (12 hex digits)."""
    digest = hashlib.sha256("\x1f".join([prompt, *endings]).encode("utf-8")).hexdigest()
    return f"codah-{digest[:12]}"


def _check(q_id: str, endings: list[Any], label: Any, where: str, file: str, problems: list[Problem]) -> bool:
    ok = True
    if len(endings) < 2:
        problems.append(Problem(file, f"{where}: {McMsg.FEW_ENDINGS.format(n=len(endings))}", qid=q_id))
        ok = False
    for i, e in enumerate(endings):
        if not isinstance(e, str) or not e.strip():
            what = (McMsg.EMPTY_ENDING.format(index=i) if isinstance(e, str)
                    else McMsg.ENDING_NOT_TEXT.format(index=i, value=e))
            problems.append(Problem(file, f"{where}: {what}", qid=q_id))
            ok = False
    if isinstance(label, bool) or not isinstance(label, int) or not 0 <= label < max(len(endings), 1):
        problems.append(Problem(file, f"{where}: {McMsg.LABEL_RANGE.format(label=label, n=len(endings), last=len(endings) - 1)}",
                                qid=q_id))
        ok = False
    return ok


def parse_record(obj: dict[str, Any], file: str, line: int, problems: list[Problem] | None = None) -> MCQuestion | None:
    """One JSON Lines record as a question; problems are appended (or raised as :class:`DataError`
    when ``problems`` is ``None``); ``None`` when the record is invalid."""
    raise_now = problems is None
    problems = [] if problems is None else problems
    before = len(problems)
    where = f"line {line}"
    q_id, prompt, endings, label = obj.get("id"), obj.get("prompt"), obj.get("endings"), obj.get("label")
    for name, value, kind in (("id", q_id, str), ("prompt", prompt, str), ("endings", endings, list), ("label", label, int)):
        if not isinstance(value, kind) or (name == "id" and not value) or (name == "label" and isinstance(value, bool)):
            expected = {"id": "a non-empty string", "prompt": "a string", "endings": "a list of strings",
                        "label": "an integer"}[name]
            problems.append(Problem(file, FormatMsg.RECORD_MISSING.format(where=where, field=name, expected=expected),
                                    qid=q_id if isinstance(q_id, str) else None))
    if len(problems) == before:
        _check(q_id, endings, label, where, file, problems)
    cats = obj.get("category", [])
    if isinstance(cats, str):
        cats = [cats] if cats else []
    if not isinstance(cats, list) or not all(isinstance(c, str) for c in cats):
        problems.append(Problem(file, FormatMsg.RECORD_MISSING.format(where=where, field="category",
                                                                      expected="a string or a list of strings"),
                                qid=q_id if isinstance(q_id, str) else None))
    if len(problems) > before:
        if raise_now:
            raise DataError(problems)
        return None
    return MCQuestion(q_id, prompt, tuple(endings), label, tuple(cats))


def _read_codah(text: str, file: str, problems: list[Problem], notes: list[Problem]) -> list[MCQuestion]:
    out: list[MCQuestion] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) != 7:
            problems.append(Problem(file, McMsg.TSV_COLUMNS.format(line=number, n=len(cols))))
            continue
        letters, prompt, *endings, label_text = cols
        bad = sorted(set(letters) - set(CODAH_CATEGORIES))
        if bad:
            problems.append(Problem(file, McMsg.TSV_CATEGORY.format(line=number, letters="".join(bad))))
            continue
        if label_text.strip() not in ("0", "1", "2", "3"):
            problems.append(Problem(file, McMsg.TSV_LABEL.format(line=number, value=label_text)))
            continue
        q_id = codah_id(prompt, endings)
        if q_id in first_line:
            k = 2
            while f"{q_id}-{k}" in first_line:
                k += 1
            notes.append(Problem(file, McMsg.REPEATED_ROW.format(first=first_line[q_id], qid=f"{q_id}-{k}"),
                                 qid=f"{q_id}-{k}", severity="warning"))
            q_id = f"{q_id}-{k}"
        first_line[q_id] = number
        if not _check(q_id, endings, int(label_text), f"line {number}", file, problems):
            continue
        cats = tuple(CODAH_CATEGORIES[c] for c in CODAH_CATEGORIES if c in letters)
        out.append(MCQuestion(q_id, prompt, tuple(endings), int(label_text), cats))
    return out


def _read_jsonl(text: str, file: str, problems: list[Problem]) -> list[MCQuestion]:
    out: list[MCQuestion] = []
    first_line: dict[str, int] = {}
    log = RecordLog(file)  # refuses every line that is not a JSON object, or is a line of a span format
    for number, obj in iter_jsonl(text, log, "mc-jsonl", "multiple-choice JSON Lines"):
        problems.extend(log.problems)
        log.problems.clear()
        q = parse_record(obj, file, number, problems)
        if q is None:
            continue
        if q.id in first_line:
            problems.append(Problem(file, f"line {number}: {McMsg.DUPLICATE_ID.format(qid=q.id, first=first_line[q.id])}",
                                    qid=q.id))
            continue
        first_line[q.id] = number
        out.append(q)
    problems.extend(log.problems)
    return out


def _first_line(path: Path) -> str | None:
    """The first non-blank line of the (gunzipped) text file at ``path``, read as a stream, so that a
    truncated ``.gz`` file still shows what it is; ``None`` when it cannot be read or has none."""
    try:
        with open_text(path) as fh:
            for _ in range(1000):
                line = fh.readline(1 << 20)
                if not line:
                    return None
                if line.strip():
                    return line
    except (OSError, EOFError, UnicodeDecodeError, ValueError, zlib.error):
        return None
    return None


def sniff_mc(path: str | os.PathLike) -> str | None:
    """The multiple-choice form of ``path``: ``"folds"`` (a folder with ``cv_split/`` or ``fold_k/``),
    ``"codah-tsv"``, ``"mc-jsonl"``, or ``None`` when it is not multiple-choice data (e.g. SQuAD).
    Reads at most the first non-blank line (as a stream: a truncated ``.gz`` file is still
    recognised, and reading it then says it is truncated); never raises on bad content."""
    p = Path(path)
    if p.is_dir():
        return "folds" if _fold_dirs(p) else None
    if not p.is_file():
        return None
    first = _first_line(p) or ""
    if first.count("\t") == 6 and first.rsplit("\t", 1)[-1].strip() in ("0", "1", "2", "3"):
        return "codah-tsv"
    if first.lstrip().startswith("{"):
        try:
            obj = json.loads(first)
        except json.JSONDecodeError:
            return None
        if isinstance(obj, dict) and "endings" in obj and "label" in obj:
            return "mc-jsonl"
    return None


def load_mc_dataset(path: str | os.PathLike, format: str = "auto") -> MCDataset:
    """Read and validate one multiple-choice file (CODAH TSV or JSON Lines, plain or ``.gz``).

    Raises:
        DataError: the file is not UTF-8/gzip, a row is malformed, an ending is empty, a label is
            out of range, an id repeats (JSON Lines) or the file has no question; every problem names
            the file, the line and (when known) the question id.
        MRCLensError: ``format`` is not ``"auto"`` or one of :data:`MC_FORMATS`, or the file is not
            multiple-choice data.
        FileNotFoundError: the file does not exist.
    """
    file = str(path)
    if not Path(path).exists():
        raise FileNotFoundError(f"{file}: no such file")
    if format == "auto":
        format = sniff_mc(path) or ""
        if format not in MC_FORMATS:
            text, problems = read_text(path)
            if problems:
                raise DataError(problems)
            raise MRCLensError(McMsg.NOT_MC.format(path=file))
    elif format not in MC_FORMATS:
        raise MRCLensError(f"unknown multiple-choice format {format!r}; MRCLens reads: {', '.join(MC_FORMATS)}")
    text, problems = read_text(path)
    if text is None:
        raise DataError(problems)
    notes: list[Problem] = []
    questions = _read_codah(text, file, problems, notes) if format == "codah-tsv" else _read_jsonl(text, file, problems)
    if not problems and not questions:
        problems.append(Problem(file, McMsg.EMPTY))
    if problems:
        raise DataError(problems)
    return MCDataset(questions, file, format, notes)


def jsonl_bytes(dataset: MCDataset) -> bytes:
    """The bytes :func:`write_jsonl` writes for ``dataset`` (UTF-8 JSON Lines, before any gzip)."""
    return "".join(json.dumps(q.to_json(), ensure_ascii=False) + "\n" for q in dataset.questions).encode("utf-8")


def write_jsonl(dataset: MCDataset, path: str | os.PathLike) -> Path:
    """Write ``dataset`` as multiple-choice JSON Lines (:func:`jsonl_bytes`; atomically:
    :func:`~mrclens.io_utils.atomic_write_bytes` gzips names that end in ``.gz``).

    Raises:
        OutputError: the file cannot be written.
    """
    return atomic_write_bytes(path, jsonl_bytes(dataset))


def _fold_dirs(root: Path) -> list[tuple[int, Path]]:
    base = root / "cv_split" if (root / "cv_split").is_dir() else root
    found = []
    for child in base.iterdir() if base.is_dir() else []:
        m = _FOLD_DIR.match(child.name)
        if m and child.is_dir():
            found.append((int(m.group(1)), child))
    return sorted(found)


def _fold_file(fold_dir: Path, name: str, fold: int) -> Path:
    for candidate in (fold_dir / f"{name}.tsv", fold_dir / f"{name}.tsv.gz", fold_dir / f"{name}.jsonl",
                      fold_dir / f"{name}.jsonl.gz"):
        if candidate.exists():
            return candidate
    raise MRCLensError(McMsg.FOLD_FILE.format(path=fold_dir, fold=fold, name=name))


def read_folds(root: str | os.PathLike, only: Iterable[int] | None = None) -> list[Fold]:
    """The cross-validation folds under ``root`` (``root/cv_split/fold_k/`` or ``root/fold_k/``),
    each with ``train``, ``dev`` and ``test`` files (TSV or JSON Lines, plain or ``.gz``).

    Args:
        root: the folder.
        only: fold numbers to read (``None``: all).

    Raises:
        MRCLensError: no fold folder, or a fold lacks a file.
        DataError: a file is invalid (see :func:`load_mc_dataset`).
    """
    dirs = _fold_dirs(Path(root))
    if not dirs:
        raise MRCLensError(McMsg.NO_FOLDS.format(path=root))
    keep = None if only is None else set(only)
    folds = []
    for k, d in dirs:
        if keep is not None and k not in keep:
            continue
        parts = {name: load_mc_dataset(_fold_file(d, name, k)) for name in ("train", "dev", "test")}
        folds.append(Fold(f"fold_{k}", parts["train"], parts["dev"], parts["test"]))
    return folds


def is_mc_input(path: str | os.PathLike) -> bool:
    """True when ``mrclens stats`` / ``mrclens check`` treat ``path`` as multiple-choice data: a
    multiple-choice file (:func:`sniff_mc`) or any folder (SQuAD data is never a folder; one without
    folds is refused by :func:`mrclens.multiple_choice.stats.compute_mc_stats` with a message)."""
    return sniff_mc(path) is not None or Path(path).is_dir()
