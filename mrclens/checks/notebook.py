"""``mrclens stats`` and ``mrclens check`` as library calls, on a file or on a dataset already loaded (issue 57).

:func:`dataset_stats` and :func:`check_dataset` (``mrclens.dataset_stats``, ``mrclens.check_dataset``) return what
the two commands compute, typed: a :class:`~mrclens.stats.files.FileStats` (the figures of ``mrclens stats
--json``) and a :class:`~mrclens.checks.rules.CheckReport` (the rules and the data route's verdicts of ``mrclens
check --json``). They run the commands' own steps: the language pre-flight
(:func:`mrclens.languages.require_readable_language`), the task's figures (:data:`~mrclens.checks.rules.FILE_STATS`)
and :func:`~mrclens.checks.rules.run_check`; :func:`file_stats` is the ``mrclens stats`` step itself, which the
command calls.

Those steps read files (the task is sniffed and the language detected from the file). A dataset in memory (a
:class:`~mrclens.squad.QADataset`, or anything :func:`mrclens.formats.load_dataset` reads: a ``datasets.Dataset``,
a pandas ``DataFrame``, flat records, a SQuAD JSON object) is therefore written to a temporary SQuAD JSON file
first (:func:`mrclens.squad.write_dataset`), which is removed afterwards; the results name the dataset by its
``source`` (``"<memory>"`` without one), not by that file. Multiple-choice data is given as a path (a CODAH file or
folds folder).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

from mrclens import inputs
from mrclens.checks.rules import FILE_STATS, CheckReport, run_check
from mrclens.formats import detect_task, load_dataset
from mrclens.languages import require_readable_language
from mrclens.squad import write_dataset
from mrclens.stats.files import FileStats

#: The name of a dataset in memory that records no ``source``.
MEMORY = "<memory>"


def file_stats(data: str | os.PathLike, dev: str | os.PathLike | None = None, *, first_k: int = 3,
               cache_dir: str | Path | None = None, progress: bool = True, n_process: int | None = None,
               on_invalid: str = "refuse", language_ok: bool = False, declared_language: str | None = None,
               on_language: Callable[[str], None] | None = None,
               on_loaded: Callable[[Any], None] | None = None) -> FileStats:
    """What ``mrclens stats DATA [--dev DEV]`` computes: the language pre-flight, then every model-free figure of
    the task's data (span: :func:`mrclens.stats.files.span_file_stats`; multiple choice:
    :func:`mrclens.multiple_choice.stats.mc_file_stats`).

    Args:
        data: the data file (any span format, or multiple-choice data: a CODAH file or folds folder).
        dev: a second file (e.g. dev), for the train/dev leakage figures.
        first_k: k of the first-k-tokens baseline (tokens).
        cache_dir: the parse and statistics cache (default: :func:`mrclens.parsing.default_cache_dir`).
        progress: report progress (:mod:`mrclens.progress`).
        n_process: worker processes for the per-question figures (``None``: the CPUs available, at most 4).
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` invalid questions (:func:`mrclens.formats.read`).
        language_ok: ``--language-ok``: on data that is not English compute only the figures that read no words.
        declared_language: ``"en"`` (``--language en``): the data is English as declared; ``None``: detected.
        on_language: called with each line the language pre-flight says (:meth:`~mrclens.languages.LanguageCheck.notes`).
        on_loaded: called with each dataset once it is loaded (the command prints its ``--on-invalid`` notes).

    Returns:
        the :class:`~mrclens.stats.files.FileStats`; its ``figures`` are ``mrclens stats --json``'s: percentages
        0-100, lengths in whitespace words, positions in sentence units or characters as each figure's name says
        (:mod:`mrclens.stats.schema`), plus ``language`` when the pre-flight recorded one and ``invalid_input``
        (``{"on_invalid", "notes"}``) when questions were skipped or repaired.

    Raises:
        DataError: a file is invalid (named with the item and the problem).
        LanguageError: the data is not English, and neither ``language_ok`` nor ``declared_language`` says so.
        FileNotFoundError: a file does not exist.
        PipelineNotInstalled: no English spaCy pipeline is installed.
    """
    language = require_readable_language("stats", [data, dev], allow=language_ok, cache_dir=cache_dir,
                                         on_invalid=on_invalid, declared=declared_language)
    for note in language.notes():
        if on_language is not None:
            on_language(note)
    task = detect_task(data, role="sniff_input")
    stats = FILE_STATS.of(task)(data, dev, cache_dir=cache_dir, progress=progress, first_k=first_k,
                                n_process=n_process, on_invalid=on_invalid, on_loaded=on_loaded,
                                **language.stats_options)
    if language.recorded:
        stats.figures["language"] = language.to_json()
    if stats.notes:  # only then, so that the figures of a valid file are unchanged
        stats.figures["invalid_input"] = {"on_invalid": on_invalid, "notes": stats.notes}
    return stats


def dataset_stats(data: Any, dev: Any = None, *, first_k: int = 3, cache_dir: str | Path | None = None,
                  progress: bool = True, n_process: int | None = None, on_invalid: str = "refuse",
                  language_ok: bool = False, declared_language: str | None = None) -> FileStats:
    """The model-free statistics of ``data`` (``mrclens.dataset_stats``): what ``mrclens stats`` computes
    (:func:`file_stats`), for a notebook.

    Args:
        data: a loaded dataset (:class:`~mrclens.squad.QADataset`, or anything :func:`mrclens.load_qa_dataset`
            reads) or a data file's path (span data in any format, or multiple-choice data).
        dev: a second dataset or file (e.g. dev), for the train/dev leakage figures; ``None``: none.
        first_k: k of the first-k-tokens baseline, in tokens (``--first-k``).
        cache_dir: the parse and statistics cache (``--cache-dir``; default: ``$MRCLENS_CACHE_DIR``, else
            ``$XDG_CACHE_HOME/mrclens`` or ``~/.cache/mrclens``): a second call on the same questions reads it.
        progress: report progress (a bar on a terminal, else log lines; :mod:`mrclens.progress`); ``False``: ``-q``.
        n_process: worker processes for the per-question figures (``--jobs``; ``None``: the CPUs available, at
            most 4).
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` invalid questions of a file (``--on-invalid``).
        language_ok: the data is not English: compute only the figures that read no words (``--language-ok``).
        declared_language: ``"en"``: the data is English as declared, whatever the detection reads
            (``--language en``); ``None``: detected.

    Returns:
        a :class:`~mrclens.stats.files.FileStats`: ``.figures`` is the dict ``mrclens stats --json`` prints
        (percentages 0-100; ``source`` / ``dev_source`` name the datasets), ``str()`` of it the plain-text report.

    Raises:
        DataError: the data is invalid, or no question is left to compute figures on.
        LanguageError: the data is not English (see :func:`file_stats`).
        MRCLensError: ``data`` is a Python object of no kind MRCLens reads.
        FileNotFoundError: a path does not exist.
    """
    with _as_files(data, dev) as (files, names):
        stats = file_stats(files[0], files[1], first_k=first_k, cache_dir=cache_dir, progress=progress,
                           n_process=n_process, on_invalid=on_invalid, language_ok=language_ok,
                           declared_language=declared_language)
    for key, name in zip(("source", "dev_source"), names):
        if name is not None:
            stats.figures[key] = name
    for dataset, name in zip(stats.datasets, [n for n, f in zip(names, files) if f is not None]):
        if name is not None:
            dataset.source = name
    return stats


def check_dataset(data: Any, dev: Any = None, *, rules: str | os.PathLike | None = None,
                  audit_dir: str | os.PathLike | None = None, compare_with: str | os.PathLike | None = None,
                  cache_dir: str | Path | None = None, progress: bool = True, n_process: int | None = None,
                  on_invalid: str = "refuse", language_ok: bool = False,
                  declared_language: str | None = None) -> CheckReport:
    """The pre-training check of ``data`` (``mrclens.check_dataset``): what ``mrclens check`` computes
    (:func:`~mrclens.checks.rules.run_check`), for a notebook: every rule's result and the data route's verdict
    of each bias category.

    Args:
        data: a loaded dataset (:class:`~mrclens.squad.QADataset`, or anything :func:`mrclens.load_qa_dataset`
            reads) or a data file's path (span data in any format, or multiple-choice data).
        dev: a second dataset or file (e.g. dev): enables the train/dev leakage rules.
        rules: a TOML rules file overriding the defaults (:func:`~mrclens.checks.rules.load_rules`;
            ``mrclens/data/default_rules.toml``).
        audit_dir: an ``mrclens audit`` output directory: enables the rules on its verdicts.
        compare_with: a reference (a dataset file, ``mrclens stats`` JSON or an audit directory): enables the
            rules on ``compare.…``.
        cache_dir: the parse and statistics cache (``--cache-dir``; default: ``$MRCLENS_CACHE_DIR``, else
            ``$XDG_CACHE_HOME/mrclens`` or ``~/.cache/mrclens``).
        progress: report progress (a bar on a terminal, else log lines; :mod:`mrclens.progress`); ``False``: ``-q``.
        n_process: worker processes for the per-question figures (``--jobs``; ``None``: the CPUs available, at
            most 4).
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` invalid questions of a file (``--on-invalid``).
        language_ok: the data is not English: run only the rules on figures that read no words, skip the others
            (``--language-ok``).
        declared_language: ``"en"``: the data is English as declared, whatever the detection reads
            (``--language en``); ``None``: detected.

    Returns:
        a :class:`~mrclens.checks.rules.CheckReport`: ``.results`` one
        :class:`~mrclens.checks.rules.RuleResult` per rule (status ``"pass"``, ``"fail"``, ``"unsure"`` or
        ``"skip"``, its value with its 95 % confidence interval; percentages 0-100), ``.exit_code`` the command's
        exit status (0 no rule fails, 1 any fails), ``.data_route`` the verdict of each bias category from the
        data's own figures against SQuAD v1.1 as an audit reads it
        (:func:`mrclens.scoring.data_route.data_route`; ``None`` for multiple-choice data or data not read as
        English), ``.to_json()`` the object ``mrclens check --json`` prints; ``.data`` and ``.dev`` name the
        datasets. :func:`mrclens.checks.format_report` gives the command's text.

    Raises:
        DataError: the data is invalid (exit 2 on the command line).
        RulesError: the rules file or the audit is malformed, or the audit is of another dataset.
        LanguageError: the data is not English (see :func:`~mrclens.checks.rules.run_check`).
        MRCLensError: ``data`` is a Python object of no kind MRCLens reads.
        FileNotFoundError: a path does not exist.
    """
    with _as_files(data, dev) as (files, names):
        report = run_check(files[0], files[1], rules, audit_dir, cache_dir=cache_dir, progress=progress,
                           on_invalid=on_invalid, compare_with=compare_with, n_process=n_process,
                           language_ok=language_ok, declared_language=declared_language)
    data_name, dev_name = names
    if report.stats is not None:
        for key, name in (("source", data_name), ("dev_source", dev_name)):
            if name is not None:
                report.stats[key] = name
    return replace(report, data=data_name or report.data, dev=dev_name or report.dev)


@contextlib.contextmanager
def _as_files(*sources: Any) -> Iterator[tuple[list[str | os.PathLike | None], list[str | None]]]:
    """The files to give the commands' steps for ``sources`` (each a path, a dataset in memory or ``None``),
    declared as the inputs of one :func:`mrclens.inputs.session` (each read from disk once); and the name of each
    dataset in memory (``None`` for a path or ``None``). A dataset in memory is written into a temporary
    directory, removed on leaving."""
    with contextlib.ExitStack() as stack:
        folder: str | None = None
        files: list[str | os.PathLike | None] = []
        names: list[str | None] = []
        for i, source in enumerate(sources):
            if source is None or isinstance(source, (str, os.PathLike)):
                files.append(source)
                names.append(None)
                continue
            dataset = load_dataset(source)  # a QADataset as it is; any other object read and validated
            if folder is None:
                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="mrclens-"))
            name = str(dataset.source) if dataset.source else MEMORY
            stem = Path(name).name.split(".")[0] if name != MEMORY else ""
            path = Path(folder) / str(i) / f"{stem or ('data', 'dev')[min(i, 1)]}.json"
            path.parent.mkdir()
            files.append(write_dataset(dataset, path))
            names.append(name)
        stack.enter_context(inputs.session())
        inputs.declare(*files)
        yield files, names
