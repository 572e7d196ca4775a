"""File helpers: read plain or gzip text, write atomically, hash files.

JSON is read with :func:`loads_unique`, which refuses a key repeated in one object
(:class:`~mrclens.errors.DuplicateKeyError`). Every file MRCLens writes goes through :func:`atomic_write_bytes`: the content is
written to a temporary file in the destination directory and moved into place with
``os.replace``, so a reader never sees a half-written file and an interrupted run
leaves the previous file intact. Temporary names start with :data:`TMP_PREFIX` and carry the
writer's host and process id, so that a later run removes those a killed run left
(:func:`remove_stale_temps`). Commands that write several files into one directory write them
into a staging directory first (:func:`staged_output`) and move them into place only when all
were written, so a failure leaves no partial output. A file or directory that cannot be written
is an :class:`~mrclens.errors.OutputError` naming the path.
"""

from __future__ import annotations

import contextlib
import gc
import gzip
import io
import json
import os
import shutil
import socket
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any, Iterable, Iterator

from mrclens import inputs
from mrclens.errors import DuplicateKeyError, InternalError, MRCLensError, Msg, OutputError

#: Every temporary file or staging directory MRCLens creates starts with this.
TMP_PREFIX = ".mrclens-tmp."
#: A temporary file of another host (or whose process cannot be checked) older than this is stale.
STALE_SECONDS = 24 * 3600
_HOST = socket.gethostname().replace(".", "_")

_UMASK = os.umask(0)
os.umask(_UMASK)


def default_mode(*, directory: bool = False) -> int:
    """The permission bits a new file (``0o666``) or folder (``0o777``) gets under the process's umask, as
    ``open`` and ``mkdir`` give them; for what ``tempfile`` creates private (0600 / 0700) and MRCLens then
    moves into place as an output."""
    return (0o777 if directory else 0o666) & ~_UMASK


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key, obj)
            seen.add(key)
    return obj


def loads_unique(text: str) -> Any:
    """``json.loads`` that refuses an object holding a key twice: how MRCLens reads data files
    (:mod:`mrclens.formats`) and its own JSON files (:func:`mrclens.artifacts.read_json_object`, the
    ``mrclens stats`` JSON of ``compare`` and ``check --compare-with``).

    Raises:
        json.JSONDecodeError: not JSON; DuplicateKeyError: a repeated key; RecursionError: nested too deeply.

    >>> loads_unique('{"a": 1, "b": {"c": 2}}')
    {'a': 1, 'b': {'c': 2}}
    >>> loads_unique('{"id": "q1", "answers": [], "answers": [{"text": "x"}]}')
    Traceback (most recent call last):
    ...
    mrclens.errors.DuplicateKeyError: duplicate key 'answers' (in the object with id 'q1')
    """
    return json.loads(text, object_pairs_hook=_unique_keys)


def read_bytes(path: str | os.PathLike) -> bytes:
    """Read a file, decompressing it when its name ends in ``.gz`` (a declared input of the command is
    read from disk once, :mod:`mrclens.inputs`).

    Raises:
        FileNotFoundError: the file does not exist.
        gzip.BadGzipFile: the name ends in ``.gz`` but the content is not gzip data.
        gzip.BadGzipFile: also when the gzip data is truncated or damaged.
    """
    path = Path(path)
    data = inputs.read_bytes(path)  # a declared input of the command: its one read (mrclens.inputs)
    return gunzip(data) if path.name.endswith(".gz") else data


def gunzip(data: bytes) -> bytes:
    """Decompress gzip ``data``.

    Raises:
        gzip.BadGzipFile: not gzip data, or gzip data that is truncated or damaged (the message says which).
    """
    try:
        return gzip.decompress(data)
    except EOFError:  # click would turn an EOFError into a bare "Aborted!"
        raise gzip.BadGzipFile("the gzip data is truncated (the file ends before the end of the "
                               "compressed stream; was the download or copy cut short?)") from None
    except zlib.error as err:
        raise gzip.BadGzipFile(f"the gzip data is damaged ({err})") from None


def _temp_prefix(name: str) -> str:
    return f"{TMP_PREFIX}{_HOST}.{os.getpid()}.{name}."


def _is_stale(path: Path, now: float) -> bool:
    """A temporary file or directory named by :func:`_temp_prefix` whose writer is gone."""
    parts = path.name[len(TMP_PREFIX):].split(".", 2)
    if len(parts) < 3:
        return False
    host, pid = parts[0], parts[1]
    if host == _HOST and pid.isdigit():
        if int(pid) == os.getpid():
            return False
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except OSError:
            pass  # the process exists (owned by another user)
        else:
            return False
    try:
        return now - path.lstat().st_mtime > STALE_SECONDS
    except OSError:
        return False


def remove_stale_temps(directory: str | os.PathLike) -> list[Path]:
    """Remove the temporary files and staging directories a killed MRCLens run left in ``directory``.

    Only names starting with :data:`TMP_PREFIX` are considered, and only those whose writing
    process no longer runs on this host (or, from another host, older than a day).

    Returns:
        the paths removed.
    """
    directory = Path(directory)
    removed = []
    now = time.time()
    try:
        entries = list(directory.iterdir())
    except OSError:
        return removed
    for entry in entries:
        if entry.name.startswith(TMP_PREFIX) and _is_stale(entry, now):
            try:
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
                removed.append(entry)
            except OSError:
                pass
    return removed


def _os_message(err: OSError) -> str:
    if isinstance(err, NotADirectoryError):
        return "a parent of it is a file, not a directory"
    if isinstance(err, IsADirectoryError):
        return "it is a directory"
    return err.strerror or str(err)


def check_output_file(path: str | os.PathLike) -> None:
    """Fail early (before long work) when the output file ``path`` clearly cannot be written:
    it is a directory, or the nearest existing parent is a file.

    Raises:
        OutputError: naming the path and why.
    """
    path = Path(path)
    if path.is_dir():
        raise OutputError(Msg.CANNOT_WRITE.format(path=path, err="it is a directory"))
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        raise OutputError(Msg.CANNOT_CREATE_DIR.format(path=path.parent, err="a parent of it is a file, not a directory"))


def make_output_dir(path: str | os.PathLike) -> bool:
    """Create the output directory ``path`` (and parents) if missing.

    Returns:
        True when this call created it.

    Raises:
        OutputError: ``path`` is a file, a parent is a file, or it cannot be created.
    """
    path = Path(path)
    if path.is_dir():
        return False
    if path.exists() or path.is_symlink():
        raise OutputError(Msg.OUTPUT_NOT_DIR.format(path=path))
    try:
        path.mkdir(parents=True)
    except FileExistsError:
        if not path.is_dir():
            raise OutputError(Msg.OUTPUT_NOT_DIR.format(path=path)) from None
        return False
    except OSError as err:
        raise OutputError(Msg.CANNOT_CREATE_DIR.format(path=path, err=_os_message(err))) from None
    return True


@contextlib.contextmanager
def staged_output(out_dir: str | os.PathLike, *, protect: Iterable[str | os.PathLike] = (),
                  last: Iterable[str] = ()) -> Iterator[Path]:
    """Write several files into ``out_dir`` all or nothing.

    Yields a staging directory inside ``out_dir`` (named with :data:`TMP_PREFIX`); the caller
    writes its files there. When the block ends normally every file is moved into ``out_dir``
    (names in ``last`` after the others, e.g. the manifest that describes them); first, every
    target is checked, so that a target that is a directory or a protected input stops the
    move before anything is replaced. When the block raises (or a check fails), the staging
    directory is removed, and so is ``out_dir`` if this call created it. Stale temporary files
    of killed runs in ``out_dir`` are removed first (:func:`remove_stale_temps`).

    Raises:
        OutputError: ``out_dir`` cannot be created or written, or a target cannot be replaced.
        MRCLensError: a target is one of the ``protect`` input files.
    """
    out = Path(out_dir)
    created = make_output_dir(out)
    try:
        remove_stale_temps(out)
        try:
            stage = Path(tempfile.mkdtemp(prefix=_temp_prefix("stage"), dir=out))
        except OSError as err:
            raise OutputError(Msg.CANNOT_WRITE.format(path=out, err=_os_message(err))) from None
        try:
            yield stage
            names = sorted(p.name for p in stage.iterdir())
            order = [n for n in names if n not in set(last)] + [n for n in last if n in names]
            protected = [Path(p).resolve() for p in protect if p and Path(p).exists()]
            for name in order:
                target = out / name
                if target.is_dir() and not target.is_symlink():
                    raise OutputError(Msg.CANNOT_WRITE.format(path=target, err="it is a directory"))
                if target.exists() and target.resolve() in protected:
                    raise MRCLensError(f"refusing to overwrite the input file {target}")
            for name in order:
                try:
                    os.replace(stage / name, out / name)
                except OSError as err:
                    raise OutputError(Msg.CANNOT_WRITE.format(path=out / name, err=_os_message(err))) from None
        finally:
            shutil.rmtree(stage, ignore_errors=True)
    except BaseException:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise


def atomic_write_bytes(path: str | os.PathLike, data: bytes, *, protect: tuple[str | os.PathLike, ...] = ()) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``; :func:`atomic_write_files` with one file).

    Names ending in ``.gz`` are gzip-compressed with a fixed timestamp (``mtime=0``),
    so the same content always gives the same bytes.

    Args:
        path: destination; its parent directory is created if missing.
        data: the uncompressed content.
        protect: input files that must never be overwritten.

    Raises:
        MRCLensError: ``path`` is one of the ``protect`` files.
        OutputError: ``path`` or its directory cannot be written (read-only, a parent is a
            file, ``path`` is a directory, disk full).
    """
    return atomic_write_files([(path, data)], protect=protect)[0]


def _on_disk(path: Path, data: bytes) -> bytes:
    """``data`` as it goes to ``path``: gzip-compressed with ``mtime=0`` for a ``.gz`` name, else as it is."""
    if not path.name.endswith(".gz"):
        return data
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as gz:
        gz.write(data)
    return buf.getvalue()


def atomic_write_files(files: Iterable[tuple[str | os.PathLike, bytes]], *,
                       protect: tuple[str | os.PathLike, ...] = ()) -> list[Path]:
    """Write several files, each to any folder, all or nothing: every target is checked first (a target that
    is a directory or a ``protect`` input stops everything before a byte is written), then every content is
    written to a temporary file beside its target (:data:`TMP_PREFIX`), and only when all are written are
    they moved into place with ``os.replace``. When a write fails the temporaries (and any folder this call
    created) are removed, and every target still holds what it held before. (For files that share one output
    folder, :func:`staged_output` does the same with a staging directory.)

    Args:
        files: ``(path, data)`` pairs; ``data`` is the uncompressed content (a ``.gz`` name is gzip-compressed
            with ``mtime=0``, as :func:`atomic_write_bytes` does).
        protect: input files that must never be overwritten.

    Returns:
        the paths, in the order given.

    Raises:
        MRCLensError: a path is one of the ``protect`` files.
        OutputError: a path is a directory, or a file cannot be written (the message names it); nothing
            was replaced (a rename failing after all were written, which the checks make rare, is named too).
    """
    items = [(Path(path), data) for path, data in files]
    protected = [Path(p).resolve() for p in protect if p and Path(p).exists()]
    for path, _ in items:
        if path.exists() and path.resolve() in protected:
            raise MRCLensError(f"refusing to overwrite the input file {path}")
        if path.is_dir():
            raise OutputError(Msg.CANNOT_WRITE.format(path=path, err="it is a directory"))
    created: list[Path] = []
    temps: list[tuple[str, Path]] = []
    try:
        for path, data in items:
            if not path.parent.is_dir() and make_output_dir(path.parent):
                created.append(path.parent)
            try:
                fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_temp_prefix(path.name), suffix=".tmp")
                temps.append((tmp, path))
                with os.fdopen(fd, "wb") as fh:
                    fh.write(_on_disk(path, data))
                os.chmod(tmp, default_mode())  # mkstemp creates 0600; give the usual permissions of a new file
            except OSError as err:
                raise OutputError(Msg.CANNOT_WRITE.format(path=path, err=_os_message(err))) from None
        for tmp, path in temps:
            try:
                os.replace(tmp, path)
            except OSError as err:
                raise OutputError(Msg.CANNOT_WRITE.format(path=path, err=_os_message(err))) from None
    except BaseException:
        for tmp, _ in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        for folder in reversed(created):
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return [path for path, _ in items]


def json_text(obj: Any, *, what: str | os.PathLike = "JSON output", **kwargs: Any) -> str:
    """``json.dumps(obj, allow_nan=False, **kwargs)``: every JSON text MRCLens writes (files and
    ``--json`` output) is strict JSON, never ``NaN`` or ``Infinity`` (which ``json.loads`` in other
    languages and ``jq`` reject).

    Raises:
        InternalError: ``obj`` holds a float that is not finite (a bug: inputs and options with
            such numbers are refused when read); the message names ``what`` and the value's key path.
    """
    try:
        return json.dumps(obj, allow_nan=False, **kwargs)
    except ValueError:
        found = first_non_finite(obj)
        if found is None:
            raise
        raise InternalError(f"{what}: {found[0] or 'the value'} is not a finite number; JSON has no NaN or "
                            f"Infinity") from None


def first_non_finite(obj: Any, path: str = "") -> tuple[str, float] | None:
    """The key path (``a.b[3]``) and value of the first non-finite float in ``obj`` (``NaN``, ``Infinity``:
    what Python's ``json`` reads and writes, and strict JSON has not); ``None`` when there is none.

    >>> first_non_finite({"a": [1.0, {"b": float("nan")}]}), first_non_finite({"a": 1.0})
    (('a[1].b', nan), None)
    """
    if isinstance(obj, float):
        return (path, obj) if obj != obj or obj in (float("inf"), float("-inf")) else None
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, (list, tuple)) else ()
    for key, value in items:
        found = first_non_finite(value, f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}" if path else str(key))
        if found is not None:
            return found
    return None


def atomic_write_json(path: str | os.PathLike, obj: Any, *, indent: int | None = None, protect=()) -> Path:
    """Serialise ``obj`` as UTF-8 JSON (keys in insertion order; :func:`json_text`: no NaN or
    Infinity) and write it atomically.

    Raises:
        InternalError: a float in ``obj`` is not finite (:func:`json_text`); nothing is written.
        OutputError, MRCLensError: as :func:`atomic_write_bytes`.
    """
    text = json_text(obj, what=path, ensure_ascii=False, indent=indent)
    return atomic_write_bytes(path, (text + "\n").encode("utf-8"), protect=protect)


def atomic_write_text(path: str | os.PathLike, text: str, *, protect=()) -> Path:
    """Write UTF-8 text atomically."""
    return atomic_write_bytes(path, text.encode("utf-8"), protect=protect)


def sha256_file(path: str | os.PathLike) -> str:
    """The sha256 hex digest of the file's bytes as stored on disk (compressed if ``.gz``); computed once
    per declared input of a command (:func:`mrclens.inputs.sha256`), streamed from the file otherwise."""
    return inputs.sha256(path)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while building many objects that live on.

    Building a dataset or reading ~100,000 cached parses creates millions of objects, and the
    collector would re-scan all of them again and again (reading the SQuAD train parses:
    1.45 s with it, 0.28 s without). On exit the objects alive are moved to the collector's
    permanent generation (:func:`gc.freeze`), so that later collections do not scan them
    either; they are still freed as usual when no longer referenced (nothing built here
    forms reference cycles). The collector's previous state is restored.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
