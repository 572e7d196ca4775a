"""Pre-flight: the checks of options and input files that every command runs before any work.

:func:`preflight` runs after click has parsed the command line (types, ranges, choices, ``exists=True``
paths: click's own checks) and before the command's function: so a bad value stops the command with
exit code 2 and a one-line message naming the option and the file before anything is loaded,
computed or created. It is installed once for every command by the command registry
(:func:`install`, called from :mod:`mrclens.cli`), and looks at the parameters by name, so a new
command gets the checks of the options it shares with the others:

* the output folder (``--out`` of ``perturb``, ``evaluate``, ``compare``, ``train``, ``selftest``,
  ``audit``): :func:`mrclens.artifacts.folders.check_output_folder` with the command's folder kind;
  a non-empty folder holding something else is refused unless ``--force``;
* data read as files (DATA of ``stats``, ``check``, ``evaluate``; the inputs of ``compare``; TRAIN of
  ``audit``; ``check --compare-with``): a folder written by Hugging Face datasets' ``save_to_disk`` is
  refused with the ``mrclens convert`` line that makes it a file
  (:func:`mrclens.formats.hf_datasets.refuse_saved_folder`; ``convert`` and ``validate`` read such folders);
* an output file (``--out`` of ``predict``, ``stats``, ``report``, ``convert``'s OUT; ``stats --evidence``): it must not be
  a folder or lie under a file (:func:`mrclens.io_utils.check_output_file`);
* ``--reference`` (``audit``): read now (:func:`mrclens.scoring.reference_builder.read_any_reference`);
* ``--cache-dir``: must not be a file;
* the input files (DATA, TRAIN, ``--dev``, the inputs of ``compare``, ``--compare-with``, ``--reference``,
  IN of ``convert``, FILE of ``validate``, ``selftest --data`` / ``--mc-data``): declared inputs of the
  command (:func:`mrclens.inputs.declare`), so that the pre-flight and the command's work share one
  read of each: read from disk once, hashed once, parsed once (the command runs in one
  :func:`mrclens.inputs.session`, opened by :func:`install`);
* text that ends up in outputs (``--model-name``, ``compare --names``) and, for commands that write
  outputs, every file name: valid Unicode (a byte that is not UTF-8 in a name would make the JSON
  outputs unwritable); refused with the option named and the byte shown.

The library functions behind the commands check the same things again (a library user gets them
too); here they run before the first step.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import click

#: The folder kind (:mod:`mrclens.artifacts.folders`) of each command that writes a folder.
_FOLDER_KINDS = {"perturb": "PERTURB", "evaluate": "EVALUATION", "compare": "COMPARISON", "train": "MODEL",
                 "selftest": "SELFTEST", "audit": "AUDIT"}
#: Parameters that name an output folder / file.
_OUT_FOLDER = ("out_dir", "out")
_OUT_FILE = ("out_file", "json_out", "evidence_out")
#: Parameters that name data read as files, where a folder means something else (multiple-choice folds,
#: an audit, a perturbed set): a ``save_to_disk`` folder there is refused.
_DATA_IN = ("data", "inputs", "train", "compare_with")
#: Parameters that name the command's input files (:func:`mrclens.inputs.declare`).
_INPUTS = ("data", "train", "dev", "inputs", "compare_with", "reference", "source", "file", "train_file", "dev_file",
           "mc_data")
#: Text parameters whose values are written into outputs.
_TEXT = {"model_name": "--model-name", "names": "--names"}


def install(command: click.Command) -> click.Command:
    """Make ``command`` run :func:`preflight` before its function (once; returns ``command``)."""
    if getattr(command, "_mrclens_preflight", False) or command.callback is None:
        return command
    callback = command.callback

    @functools.wraps(callback)
    def checked(*args: Any, **kwargs: Any) -> Any:
        from mrclens import inputs

        with inputs.session():  # the pre-flight and the command share one read of each input file
            preflight(click.get_current_context())
            return callback(*args, **kwargs)

    command.callback = checked
    command._mrclens_preflight = True  # type: ignore[attr-defined]
    return command


def preflight(ctx: click.Context) -> None:
    """Check the parsed parameters of ``ctx`` and declare its input files (module docstring); create nothing.

    Raises:
        click.BadParameter: a value is not valid Unicode text (exit code 2).
        MRCLensError: a ``save_to_disk`` folder given as data to read as a file, an output folder or file
            that cannot be used, a bad reference, a cache directory that is a file (exit code 2; the
            message names the option's file).
    """
    from mrclens import inputs

    params = ctx.params
    for name in _INPUTS:  # before anything reads them (``--reference`` below)
        value = params.get(name)
        inputs.declare(*(value if isinstance(value, (tuple, list)) else (value,)))
    writes = any(params.get(name) for name in (*_OUT_FOLDER, *_OUT_FILE))
    for name, value in params.items():
        _check_text(ctx, name, value, writes)
    for name in _DATA_IN:
        _check_not_saved_folder(params.get(name), ctx.info_name or "")
    kind = _FOLDER_KINDS.get(ctx.info_name or "")
    for name in _OUT_FOLDER:
        if params.get(name) and kind is not None:
            _check_folder(params[name], kind, bool(params.get("force")))
    for name in _OUT_FILE:
        if params.get(name):
            from mrclens.io_utils import check_output_file

            check_output_file(params[name])
    if ctx.info_name == "convert" and params.get("out") and params.get("to") != "hf":  # --to hf writes a folder
        from mrclens.io_utils import check_output_file

        check_output_file(params["out"])
    if params.get("reference"):
        from mrclens.scoring.reference_builder import read_any_reference

        read_any_reference(params["reference"])
    if params.get("cache_dir"):
        _check_cache_dir(params["cache_dir"])


def _check_not_saved_folder(value: Any, command: str) -> None:
    for item in value if isinstance(value, (tuple, list)) else (value,):
        if isinstance(item, (str, os.PathLike)) and Path(item).is_dir():
            from mrclens.formats.hf_datasets import refuse_saved_folder

            refuse_saved_folder(item, command)


def _check_folder(folder: str, kind_name: str, force: bool) -> None:
    from mrclens.artifacts import folders

    folders.check_output_folder(folder, getattr(folders, kind_name), force=force)


def _check_cache_dir(directory: str) -> None:
    from mrclens.errors import CacheError, Msg

    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise CacheError(Msg.CACHE_NOT_DIR.format(path=path))


def _check_text(ctx: click.Context, name: str, value: Any, writes: bool) -> None:
    """Refuse a text or path value that holds a byte that is not UTF-8 (a lone surrogate, as Python
    decodes such bytes of the command line)."""
    values = value if isinstance(value, (tuple, list)) else (value,)
    is_text = name in _TEXT
    for item in values:
        if not isinstance(item, (str, os.PathLike)) or not (is_text or writes):
            continue
        text = os.fspath(item)
        bad = _first_surrogate(text)
        if bad is None:
            continue
        byte = ord(text[bad]) - 0xDC00
        param = next((p for p in ctx.command.params if p.name == name), None)
        what = "text written into the outputs" if is_text else "a file name the outputs record"
        shown = text.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
        raise click.BadParameter(
            f"{shown!r} is not valid UTF-8 (byte 0x{byte:02x} at character {bad}); it is {what}, which MRCLens "
            f"writes as UTF-8 JSON: rename it or give UTF-8 text", ctx=ctx, param=param)


def _first_surrogate(text: str) -> int | None:
    for i, ch in enumerate(text):
        if "\udc80" <= ch <= "\udcff":
            return i
    return None

