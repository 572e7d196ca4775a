"""Hugging Face ``datasets`` objects to and from MRCLens data: the Hub's ``squad`` features exactly.

* :func:`hub_features` — the ``datasets.Features`` the Hub's ``squad`` and ``squad_v2`` dataset
  cards declare (https://huggingface.co/datasets/rajpurkar/squad,
  https://huggingface.co/datasets/rajpurkar/squad_v2): ``id``, ``title``, ``context``,
  ``question`` strings and ``answers``, a sequence of ``text`` (string) and ``answer_start``
  (int32, characters into ``context``).
* :func:`to_hf_dataset` — a :class:`~mrclens.squad.Dataset` (or a mapping split name → dataset) as a
  ``datasets.Dataset`` (``DatasetDict``) with those features, so ``datasets.concatenate_datasets``
  takes it beside the Hub's data; reading it back (:func:`mrclens.formats.load_dataset`) gives the
  same questions, answers and unanswerable flags.
* :func:`save_to_disk` / :func:`load_saved` — folders written by ``save_to_disk`` (``mrclens
  convert --to hf``; any command-line input may be such a folder, with ``--split`` for a
  ``DatasetDict``); :func:`choose_split` picks one split of a ``DatasetDict``.

``datasets`` is imported only inside these functions (the ``hf`` extra: ``pip install -e '.[hf]'``);
without it they raise :class:`~mrclens.errors.MRCLensError` saying how to install it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mrclens.errors import FormatMsg, MRCLensError, Msg, OutputError
from mrclens.formats.hf_flat import records_table
from mrclens.io_utils import default_mode
from mrclens.squad import Dataset

if TYPE_CHECKING:  # the annotations only (the hf extra); at run time ``datasets`` is imported inside the functions
    import datasets

#: Files ``save_to_disk`` writes at the top of its folder: a ``DatasetDict`` / a ``Dataset``.
SAVED_MARKERS = ("dataset_dict.json", "state.json")


def _datasets(what: str):
    try:
        import datasets
    except ImportError:
        raise MRCLensError(FormatMsg.DATASETS_MISSING.format(what=what)) from None
    return datasets


def hub_features() -> datasets.Features:
    """The ``datasets.Features`` of the Hub's ``squad`` / ``squad_v2`` (both cards declare the same): ``id``,
    ``title``, ``context``, ``question`` (strings) and ``answers`` (a sequence of ``text``, string, and
    ``answer_start``, int32: a character offset into ``context``). :func:`to_hf_dataset` gives its data these
    features; read flat JSON Lines with ``features=hub_features()`` to get them back (JSON has no int32).

    Returns:
        the ``datasets.Features``.

    Raises:
        MRCLensError: ``datasets`` is not installed.
    """
    ds = _datasets("hub_features()")
    return ds.Features({
        "id": ds.Value("string"), "title": ds.Value("string"), "context": ds.Value("string"),
        "question": ds.Value("string"),
        "answers": ds.Sequence({"text": ds.Value("string"), "answer_start": ds.Value("int32")}),
    })


def to_hf_dataset(data: Any, *, extra_columns: bool = False) -> datasets.Dataset | datasets.DatasetDict:
    """MRCLens data as a ``datasets.Dataset`` with :func:`hub_features` (one row per question).

    Args:
        data: a :class:`~mrclens.squad.Dataset`, or anything :func:`mrclens.formats.load_dataset`
            reads (a file path …; loaded first); or a mapping split name → either of those, which
            gives a ``datasets.DatasetDict``.
        extra_columns: also ``is_impossible`` and every other question field (e.g.
            ``plausible_answers``) as columns after the Hub's (:func:`mrclens.formats.hf_flat.to_records`);
            the features are then no longer exactly the Hub's.

    Returns:
        a ``datasets.Dataset``, one row per question in file order (``datasets.DatasetDict`` for a mapping of
        splits); ``answer_start`` in characters of ``context``, as on the Hub.

    Raises:
        MRCLensError: ``datasets`` is not installed (the message says ``pip install 'mrclens[hf]'``), or
            ``data`` is a Python object of no kind MRCLens reads.
        DataError: ``data`` needed loading and is invalid (each problem named with the file and item).
        FileNotFoundError: ``data`` is a path that does not exist.
    """
    ds = _datasets("to_hf_dataset()")
    if isinstance(data, Mapping) and data and all(isinstance(v, (Dataset, str, os.PathLike)) for v in data.values()):
        return ds.DatasetDict({name: to_hf_dataset(part, extra_columns=extra_columns) for name, part in data.items()})
    if not isinstance(data, Dataset):
        from mrclens.formats import load_dataset  # (the package imports this module)

        data = load_dataset(data)
    table = records_table(data, extra_columns)
    out = ds.Dataset(table)
    features = hub_features()
    for name in table.column_names[len(features):]:
        features[name] = out.features[name]
    return out if out.features == features else out.cast(features)


def is_saved_dataset(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a folder written by ``datasets``' ``save_to_disk`` (:data:`SAVED_MARKERS`)."""
    return Path(path).is_dir() and any((Path(path) / marker).is_file() for marker in SAVED_MARKERS)


def load_saved(path: str | os.PathLike):
    """The ``datasets.Dataset`` or ``DatasetDict`` saved in the folder ``path`` (``datasets.load_from_disk``).

    Raises:
        MRCLensError: ``path`` is a folder not written by ``save_to_disk``, or a damaged one (a file that
            is not valid JSON, an ``.arrow`` file cut short, a split folder missing: the message names the
            folder and the file, :func:`damage`), or ``datasets`` is not installed.
    """
    if not is_saved_dataset(path):
        raise MRCLensError(FormatMsg.NOT_SAVED_DATASET.format(path=path))
    ds = _datasets(f"reading the saved dataset {path}")
    try:
        return ds.load_from_disk(str(path))
    except (OSError, ValueError, KeyError, TypeError) as err:  # JSONDecodeError, pyarrow's errors, a missing file
        what = damage(path) or f"{type(err).__name__}: {err}"
        raise MRCLensError(FormatMsg.SAVED_DAMAGED.format(path=path, what=what)) from None


def damage(path: str | os.PathLike) -> str | None:
    """What is damaged in the ``save_to_disk`` folder ``path``, naming the file: ``dataset_dict.json``,
    a split's folder, ``dataset_info.json`` or ``state.json`` missing or not a JSON object, an ``.arrow``
    file that ``state.json`` lists missing or not a complete Arrow stream; ``None`` when none is.
    Reads every ``.arrow`` file whole: for a folder ``load_from_disk`` refused."""
    import json

    import pyarrow as pa

    folder = Path(path)
    manifest = folder / "dataset_dict.json"
    parts = [folder]
    if manifest.is_file():
        try:
            parts = [folder / split for split in json.loads(manifest.read_bytes())["splits"]]
        except (OSError, ValueError, KeyError, TypeError) as err:
            return f"{manifest} is not a JSON object with a 'splits' list ({err})"
    for part in parts:
        if not part.is_dir():
            return f"the split folder {part} (listed in {manifest}) is missing"
        for name in ("dataset_info.json", "state.json"):
            try:
                obj = json.loads((part / name).read_bytes())
            except FileNotFoundError:
                return f"{part / name} is missing"
            except (OSError, ValueError) as err:
                return f"{part / name} is not valid JSON ({err})"
            if not isinstance(obj, dict):
                return f"{part / name} is not a JSON object"
        for entry in obj.get("_data_files") or []:  # (state.json's)
            arrow = part / str(entry.get("filename") if isinstance(entry, dict) else entry)
            try:
                with pa.memory_map(str(arrow)) as source:
                    pa.ipc.open_stream(source).read_all()
            except FileNotFoundError:
                return f"{arrow} is missing"
            except (OSError, pa.ArrowException) as err:
                return f"{arrow} is not a complete Arrow file (cut short or damaged: {err})"
    return None


def refuse_saved_folder(path: str | os.PathLike, command: str) -> None:
    """Refuse a ``save_to_disk`` folder given to ``mrclens COMMAND``, which reads data files (only
    ``convert`` and ``validate`` read such folders), with the ``mrclens convert`` line that writes it
    as a SQuAD JSON file beside it (``--split`` the first of a ``DatasetDict``'s splits); return when
    ``path`` is no such folder.

    Raises:
        MRCLensError: :data:`~mrclens.errors.FormatMsg.SAVED_FOLDER_GIVEN`.
    """
    if not is_saved_dataset(path):
        return
    import json
    import shlex

    folder = Path(path)
    splits: list[str] = []
    if (folder / "dataset_dict.json").is_file():
        try:
            splits = [str(s) for s in json.loads((folder / "dataset_dict.json").read_bytes())["splits"]]
        except (OSError, ValueError, KeyError, TypeError):
            splits = ["NAME"]  # (a damaged folder: reading it says what is wrong)
    out = folder.with_name(f"{folder.name}-{splits[0]}.json" if splits else f"{folder.name}.json")
    line = shlex.join(["mrclens", "convert", str(folder), str(out), "--to", "squad",
                       *(["--split", splits[0]] if splits else [])])
    kind = f"a DatasetDict; its splits: {', '.join(splits)}" if splits else "one Dataset"
    raise MRCLensError(FormatMsg.SAVED_FOLDER_GIVEN.format(path=path, kind=kind, command=command, line=line))


def is_dataset_dict(obj: Any) -> bool:
    """Whether ``obj`` is a ``DatasetDict`` (duck-typed: a non-empty mapping of tables with ``column_names``)."""
    return isinstance(obj, Mapping) and bool(obj) and all(hasattr(v, "column_names") for v in obj.values())


def choose_split(obj: Any, split: str | None, source: str = "<memory>") -> Any:
    """``obj[split]`` of a ``DatasetDict``; its only split when ``split`` is ``None``; ``obj`` itself
    when it is not a ``DatasetDict`` and no split is asked for.

    Raises:
        MRCLensError: several splits and none chosen (the message lists them), no split of that name,
            or a split asked of a dataset without splits.
    """
    if not is_dataset_dict(obj):
        if split is not None:
            raise MRCLensError(FormatMsg.SPLIT_NOT_DICT.format(source=source, split=split))
        return obj
    names = ", ".join(obj)
    if split is None:
        if len(obj) != 1:
            raise MRCLensError(FormatMsg.DATASETS_SPLITS.format(source=source, splits=names, first=next(iter(obj))))
        return next(iter(obj.values()))
    if split not in obj:
        raise MRCLensError(FormatMsg.DATASETS_NO_SPLIT.format(source=source, split=split, splits=names))
    return obj[split]


#: Suffixes of data files (lower case): a ``save_to_disk`` folder given such a name is refused.
FILE_SUFFIXES = (".json", ".jsonl", ".gz", ".parquet", ".arrow", ".csv", ".tsv", ".txt", ".zip")


def check_folder_name(path: str | os.PathLike) -> None:
    """Refuse a ``save_to_disk`` output whose name ends in a data file's suffix (:data:`FILE_SUFFIXES`):
    ``x.json`` would be a folder that every reader, and the user, takes for a file. An existing folder
    written by ``save_to_disk`` passes (it is replaced as before). Checks only the name: call it
    before any work.

    Raises:
        MRCLensError: the name ends in such a suffix (the message suggests a folder name).
    """
    path = Path(path)
    name = path.name.lower()
    suffix = next((s for s in FILE_SUFFIXES if name.endswith(s)), None)
    if suffix is None or is_saved_dataset(path):
        return
    stem = path.name
    while any(stem.lower().endswith(s) for s in FILE_SUFFIXES) and Path(stem).stem:
        stem = Path(stem).stem
    raise MRCLensError(FormatMsg.HF_OUTPUT_FILE_NAME.format(path=path, suffix=path.suffix, folder=path.with_name(stem)))


def save_to_disk(data: Any, path: str | os.PathLike, *, extra_columns: bool = False,
                 protect: tuple[str | os.PathLike, ...] = ()) -> Path:
    """Write :func:`to_hf_dataset` of ``data`` to the folder ``path`` with ``save_to_disk``, whole or
    not at all: written into a temporary sibling folder and moved into place; an earlier folder
    written by ``save_to_disk`` at ``path`` is replaced. The folder's mode follows the umask, as a folder
    made with ``mkdir`` (``datasets``' own progress bar follows :func:`mrclens.progress.library_bars` on the
    command line).

    Raises:
        MRCLensError: ``path`` exists and is not such a folder (or is a file), or is one of ``protect``
            (the input), or names a file (:func:`check_folder_name`); ``datasets`` is not installed.
        OutputError: the folder cannot be written (a full disk, a failing device …; ``path`` named).
    """
    path = Path(path)
    check_folder_name(path)
    if any(Path(p).exists() and path.exists() and path.resolve() == Path(p).resolve() for p in protect):
        raise MRCLensError(f"refusing to overwrite the input {path}")
    if path.exists() and not is_saved_dataset(path):
        raise MRCLensError(FormatMsg.OUTPUT_NOT_DATASET_FOLDER.format(path=path))
    hf = to_hf_dataset(data, extra_columns=extra_columns)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"))
    old = None
    try:
        os.chmod(tmp, default_mode(directory=True))  # mkdtemp makes it 0700: the folder is an output like any other
        hf.save_to_disk(str(tmp))
        if path.exists():
            old = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".old"))
            os.rmdir(old)
            os.replace(path, old)
        os.replace(tmp, path)
    except BaseException as err:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and old.exists() and not path.exists():
            os.replace(old, path)
        if isinstance(err, OSError):
            raise OutputError(Msg.CANNOT_WRITE.format(path=path, err=err.strerror or err)) from None
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return path
