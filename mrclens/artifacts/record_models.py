"""Typed JSON files read through pydantic models derived from their dataclass records, and their JSON Schema.

An owner module (:mod:`mrclens.artifacts.results`, :mod:`mrclens.artifacts.training_record`) declares its file as a
:class:`RecordFormat`: the root dataclass and what the file says beyond the dataclasses' own fields and defaults
(``read_as``: the default of a key that older files lack, a key that is required although the record has a default,
a constraint, a narrower type). From them it derives one strict pydantic model per record (never a second,
hand-written twin of the records): :meth:`RecordFormat.read` validates a JSON object with them and builds the
records, and :meth:`RecordFormat.json_schema` is the JSON Schema of the same models, so that the schema published
with the documentation and the reader accept the same files.

Validation is strict, as the hand-written readers were: no string is read as a number, ``true`` is no integer, an
integer is read as a float where a float is expected, ``NaN`` and ``Infinity`` are refused; keys no record knows are
ignored. A failure is an :class:`~mrclens.errors.ArtifactError` naming the file, the item (``ablation e1: ``) and the
field, as every reader of :mod:`mrclens.artifacts` does.

Examples:
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Point:
    ...     x: float
    ...     label: str | None
    >>> fmt = RecordFormat(Point, read_as={Point: {"label": None}})
    >>> fmt.read({"x": 1}, "p.json")
    Point(x=1.0, label=None)
    >>> fmt.read({"x": "1"}, "p.json")
    Traceback (most recent call last):
    ...
    mrclens.errors.ArtifactError: p.json: field 'x' is missing or has the wrong type (expected a number)
    >>> fmt.json_schema()["required"]
    ['x']
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
import types
import typing
from typing import Any, Annotated, Literal, Mapping, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.fields import FieldInfo
from pydantic.json_schema import GenerateJsonSchema

from mrclens.artifacts._files import VERSION_KEY
from mrclens.errors import ArtifactError, ArtifactMsg

__all__ = ["RecordFormat"]

#: strict: the types of the hand-written readers (no "1" for 1, no true for 1); finite numbers only
#: (``protected_namespaces``: fields named ``model_...``, as ``model_free``, are the file's own)
_CONFIG = ConfigDict(strict=True, allow_inf_nan=False, protected_namespaces=())
_NOUNS = {str: "a string", int: "an integer", float: "a number", bool: "true/false", dict: "an object", list: "a list",
          type(None): "null", Any: "any value"}
_NOUN_OF_ERROR = {"string_type": "a string", "int_type": "an integer", "float_type": "a number",
                  "bool_type": "true/false", "dict_type": "an object", "model_type": "an object", "list_type": "a list", "missing": "a value"}


class _NoTitles(GenerateJsonSchema):
    """pydantic's JSON Schema without the title it makes up for every field ("Eval Set" for ``eval_set``)."""

    def field_title_should_be_set(self, schema) -> bool:
        return False


def _plain(doc: str | None) -> str | None:
    """A docstring as a schema description: Sphinx roles and double backticks become plain backticked names."""
    if not doc:
        return None
    text = inspect.cleandoc(doc)
    text = re.sub(r":\w+:`~[\w.]*?(\w+)`", r"`\1`", text)
    text = re.sub(r":\w+:`([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


class RecordFormat:
    """A JSON file whose objects are dataclass records (module docstring).

    Args:
        root: the dataclass of the file's top-level object; the dataclasses its fields hold (directly, in a
            list, in a ``dict[str, ...]``, or ``| None``) are read as records too.
        read_as: per record class, per field, what the file says beyond the dataclass: a plain value (the
            default when the key is absent), a :func:`pydantic.Field` (``Field(...)``: required; constraints,
            ``description``) or ``Annotated[type, Field(...)]`` (another type: a :data:`typing.Literal`, a
            pydantic model for a ``dict`` field).
        extra: per record class, keys the file holds that the record does not keep (``{name: (type, Field)}``):
            described and checked, not read back.
        labels: per field that holds a list or dict of records, how an item is named in messages:
            ``(template, fallback)``, formatted with the item's string fields, ``key`` (its key or index)
            and ``n`` (its 1-based position); the fallback when the item lacks a field the template names.
        title, description: the JSON Schema's (the root record's docstring when no description is given).
    """

    def __init__(self, root: type, *, read_as: Mapping[type, Mapping[str, Any]] | None = None,
                 extra: Mapping[type, Mapping[str, tuple[Any, FieldInfo]]] | None = None,
                 labels: Mapping[str, tuple[str, str]] | None = None, title: str | None = None,
                 description: str | None = None) -> None:
        self.root, self.read_as, self.extra, self.labels = root, read_as or {}, extra or {}, labels or {}
        self.title, self.description = title, description
        self._models: dict[type, type[BaseModel]] = {}
        self._records: dict[type[BaseModel], type] = {}

    def model(self, cls: type | None = None) -> type[BaseModel]:
        """The strict pydantic model of record ``cls`` (the root by default), built once."""
        cls = self.root if cls is None else cls
        if cls not in self._models:
            hints = typing.get_type_hints(cls)
            defined: dict[str, Any] = {}
            for f in dataclasses.fields(cls):
                if f.init:
                    defined[f.name] = self._field(f, hints[f.name], self.read_as.get(cls, {}))
            for name, (kind, info) in self.extra.get(cls, {}).items():
                defined[name] = (self._swap(kind), info)
            model = create_model(cls.__name__, __config__=_CONFIG, __doc__=_plain(cls.__doc__), **defined)
            self._models[cls], self._records[model] = model, cls
        return self._models[cls]

    def _field(self, f: dataclasses.Field, hint: Any, read_as: Mapping[str, Any]) -> tuple[Any, FieldInfo]:
        if f.name in read_as:
            spec = read_as[f.name]
            if typing.get_origin(spec) is Annotated:
                kind, info = typing.get_args(spec)
                return self._swap(kind), info
            return self._swap(hint), spec if isinstance(spec, FieldInfo) else Field(spec)
        if f.default is not dataclasses.MISSING:
            return self._swap(hint), Field(f.default)
        if f.default_factory is not dataclasses.MISSING:
            return self._swap(hint), Field(f.default_factory())  # pydantic copies a mutable default per use
        return self._swap(hint), Field(...)

    def _swap(self, hint: Any) -> Any:
        """``hint`` with every record dataclass in it replaced by its model."""
        if dataclasses.is_dataclass(hint) and isinstance(hint, type):
            return self.model(hint)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (Union, types.UnionType):
            return Union[tuple(self._swap(a) for a in args)]
        if origin in (list, dict):
            return origin[tuple(self._swap(a) for a in args)]
        return hint

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of the file: the records' models, each with its docstring."""
        schema = self.model().model_json_schema(mode="validation", schema_generator=_NoTitles)
        head = {"$schema": GenerateJsonSchema.schema_dialect, "title": self.title or self.root.__name__}
        if self.description:
            schema["description"] = self.description
        schema.pop("title", None)
        return {**head, **schema}

    def read(self, obj: Any, path: str | os.PathLike, where: str = "") -> Any:
        """The root record of JSON object ``obj`` read from ``path``, validated (``where`` prefixes the item in
        messages, e.g. ``"audit: training: "``).

        Raises:
            ArtifactError: a key is missing or has the wrong type or value (the message names ``path``, the
                item and the field; the first problem found).
        """
        if not isinstance(obj, Mapping):
            raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(path=path, expected=f"{where}an object"))
        try:
            validated = self.model().model_validate(obj)
        except ValidationError as err:
            raise ArtifactError(self._problem(err.errors(include_url=False)[0], obj, path, where)) from None
        return self._record(validated)

    def _record(self, value: Any) -> Any:
        if isinstance(value, BaseModel):
            cls = self._records.get(type(value))
            if cls is None:  # a model standing for a plain dict (``read_as``)
                return value.model_dump()
            return cls(**{f.name: self._record(getattr(value, f.name)) for f in dataclasses.fields(cls) if f.init})
        if isinstance(value, list):
            return [self._record(v) for v in value]
        if isinstance(value, dict):
            return {k: self._record(v) for k, v in value.items()}
        return value

    def _problem(self, error: Mapping[str, Any], obj: Any, path: Any, where: str) -> str:
        """One validation error as a message naming the file, the item and the field."""
        loc, model, node, i = error["loc"], self.model(), obj, 0
        while i < len(loc) - 1:
            key, info = loc[i], model.model_fields.get(loc[i])
            inner = _model_in(info.annotation) if info is not None else None
            child = node.get(key) if isinstance(node, Mapping) else None
            if inner is None or child is None:
                break
            if key in self.labels and isinstance(child, (list, dict)):
                item = child[loc[i + 1]]
                label = _label(self.labels[key], loc[i + 1], item)
                if i + 2 == len(loc):  # the item itself is not an object
                    return ArtifactMsg.BAD_SHAPE.format(path=path, expected=f"{where}{label}: an object")
                where, node, i = f"{where}{label}: ", item, i + 2
            else:
                where, node, i = f"{where}{key}: ", child, i + 1
            model = inner
        name = str(loc[i]) + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in loc[i + 1:])
        kind, info = error["type"], model.model_fields.get(loc[i])
        if kind == "finite_number":
            return ArtifactMsg.NOT_FINITE.format(path=path, where=where, field=name, value=error["input"])
        if loc[i] == VERSION_KEY and kind in ("less_than_equal", "greater_than_equal"):
            template = ArtifactMsg.NEWER_FORMAT if kind == "less_than_equal" else ArtifactMsg.UNKNOWN_FORMAT
            return template.format(path=f"{path}: {where}".rstrip(": "), found=error["input"],
                                   supported=error["ctx"]["le" if kind == "less_than_equal" else "ge"])
        if kind == "missing" or kind.endswith("_type"):
            expected = _noun(info.annotation) if info is not None and len(loc) == i + 1 \
                else _NOUN_OF_ERROR.get(kind, error["msg"].lower())
            return ArtifactMsg.BAD_FIELD.format(path=path, where=where, field=name, expected=expected)
        allowed = info.description if info is not None and info.description else \
            error.get("ctx", {}).get("expected") or f"allowed ({error['msg'].lower()})"
        return ArtifactMsg.BAD_VALUE.format(path=path, where=where, field=name, value=error["input"], allowed=allowed)


def _model_in(hint: Any) -> type[BaseModel] | None:
    """The model a field holds (alone, in a list or dict, or ``| None``), if any."""
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return hint
    return next((m for m in map(_model_in, typing.get_args(hint)) if m is not None), None)


def _label(spec: tuple[str, str], key: Any, item: Any) -> str:
    """An item of a list or dict of records as messages name it (:class:`RecordFormat`'s ``labels``)."""
    where = {"key": key, "n": key + 1 if isinstance(key, int) else key}
    names = {k: v for k, v in item.items() if isinstance(v, str)} if isinstance(item, Mapping) else {}
    try:
        return spec[0].format(**{**names, **where})
    except KeyError:
        return spec[1].format(**where)


def _noun(hint: Any) -> str:
    """What a field's type asks for, in words (``"a number or null"``)."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return " or ".join(_noun(a) for a in typing.get_args(hint))
    if origin is Literal:
        return " or ".join(repr(a) for a in typing.get_args(hint))
    if origin is Annotated:
        return _noun(typing.get_args(hint)[0])
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return "an object"
    return _NOUNS.get(origin or hint, getattr(hint, "__name__", str(hint)))
