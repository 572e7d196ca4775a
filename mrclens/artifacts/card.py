"""The dataset-card files of ``mrclens card``: one writer, one reader.

``mrclens card AUDIT_DIR`` drafts four files from an audit's ``results.json`` (the text is composed
by :mod:`mrclens.reports.card`; this module only places, writes and reads them):

* ``bias-card.md`` — a Markdown "Bias, Risks, and Limitations" section, the heading the Hugging
  Face dataset-card template uses (``datasetcard_template.md``), with its ``### Recommendations``,
  for the dataset's authors to edit and paste into a card they write by hand;
* ``bias-card-body.md`` and ``bias-card-recommendations.md`` — the same section's body (no heading
  of its own) and its recommendations, the values of the template's ``bias_risks_limitations`` and
  ``bias_recommendations`` variables (``huggingface_hub.DatasetCard.from_template(card_data,
  bias_risks_limitations=…, bias_recommendations=…)`` takes them as they are);
* ``bias-card.rai.jsonld`` — a Croissant RAI fragment: a JSON-LD object with the Croissant 1.0
  ``@context`` (:data:`CROISSANT_CONTEXT`, which binds ``rai:`` to the RAI vocabulary
  ``http://mlcommons.org/croissant/RAI/``) and the two RAI properties ``rai:dataBiases`` and
  ``rai:dataLimitations`` (lists of text), to merge into the dataset's Croissant record
  (``croissant.json``), and the figures behind each ``rai:dataBiases`` statement as one JSON literal,
  ``mrclens:biasFigures`` (:data:`FIGURES_PROPERTY`; ``mrclens:`` bound to :data:`MRCLENS_VOCABULARY`).
  Source: "Croissant RAI Specification" 1.0, MLCommons 2024.

Where they go (:func:`card_paths`): ``--out NAME.md`` (or ``.markdown``) gets the Markdown under
that name and the others beside it (``NAME-body.md``, ``NAME-recommendations.md``, ``NAME.rai.jsonld``);
any other ``--out`` is a folder that
gets both files under their names (``out/card.v2`` too), except an existing file and a name ending
in another file type's suffix (``notes.txt``, ``card.html``: a file name, but not Markdown), which
are refused; no ``--out``: the audit directory. An existing
file is replaced only with ``force`` (:func:`write_card`); the four files are written all or nothing.

Examples:
    >>> paths = card_paths("card/notes.md", "audit")
    >>> paths.markdown.as_posix(), paths.rai.as_posix(), paths.body.as_posix()
    ('card/notes.md', 'card/notes.rai.jsonld', 'card/notes-body.md')
    >>> card_paths(None, "audit").recommendations.as_posix()
    'audit/bias-card-recommendations.md'
    >>> card_paths(None, "audit").rai.as_posix()
    'audit/bias-card.rai.jsonld'
    >>> card_paths("out/card.v2", "audit").markdown.as_posix()
    'out/card.v2/bias-card.md'
"""

from __future__ import annotations

import json
import logging
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mrclens.artifacts import _files
from mrclens.errors import ArtifactError, ArtifactMsg, OutputError
from mrclens.io_utils import atomic_write_files, json_text

#: The Markdown section's file name in an output folder.
CARD_MARKDOWN = "bias-card.md"
#: The Croissant RAI fragment's file name in an output folder.
CARD_RAI = "bias-card.rai.jsonld"
#: The name ending of the section's body (the template's ``bias_risks_limitations``), beside the Markdown.
BODY_SUFFIX = "-body"
#: The name ending of the recommendations (the template's ``bias_recommendations``), beside the Markdown.
RECOMMENDATIONS_SUFFIX = "-recommendations"
#: The section's body file name in an output folder.
CARD_BODY = "bias-card" + BODY_SUFFIX + ".md"
#: The recommendations file name in an output folder.
CARD_RECOMMENDATIONS = "bias-card" + RECOMMENDATIONS_SUFFIX + ".md"
#: The IRI the ``mrclens:`` prefix of the fragment stands for (MRCLens's own terms; no vocabulary is published).
MRCLENS_VOCABULARY = "urn:mrclens:"
#: The fragment's property holding each category's figures (a JSON literal: a list of objects, one per category).
FIGURES_PROPERTY = "mrclens:biasFigures"
#: The RAI vocabulary (Croissant RAI 1.0).
RAI_VOCABULARY = "http://mlcommons.org/croissant/RAI/"
#: The RAI properties the fragment holds, each a list of text.
RAI_PROPERTIES = ("rai:dataBiases", "rai:dataLimitations")

#: The ``@context`` of a Croissant 1.0 record (the specification's, which binds ``rai``), as the
#: reference implementation writes it: a test checks it against ``mlcroissant``'s own
#: (``mlcroissant._src.core.rdf.make_context``, mlcroissant 1.1).
CROISSANT_CONTEXT: dict[str, Any] = {
    "@language": "en",
    "@vocab": "https://schema.org/",
    "citeAs": "cr:citeAs",
    "column": "cr:column",
    "conformsTo": "dct:conformsTo",
    "cr": "http://mlcommons.org/croissant/",
    "rai": RAI_VOCABULARY,
    "data": {"@id": "cr:data", "@type": "@json"},
    "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
    "dct": "http://purl.org/dc/terms/",
    "equivalentProperty": "cr:equivalentProperty",
    "examples": {"@id": "cr:examples", "@type": "@json"},
    "extract": "cr:extract",
    "field": "cr:field",
    "fileProperty": "cr:fileProperty",
    "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet",
    "format": "cr:format",
    "includes": "cr:includes",
    "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath",
    "key": "cr:key",
    "md5": "cr:md5",
    "parentField": "cr:parentField",
    "path": "cr:path",
    "recordSet": "cr:recordSet",
    "references": "cr:references",
    "regex": "cr:regex",
    "repeated": "cr:repeated",
    "replace": "cr:replace",
    "samplingRate": "cr:samplingRate",
    "sc": "https://schema.org/",
    "separator": "cr:separator",
    "source": "cr:source",
    "subField": "cr:subField",
    "transform": "cr:transform",
}

_HINT = "run `mrclens card AUDIT_DIR` first"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CardPaths:
    """Where the card files go: the full section, the fragment, the section's body and its recommendations."""

    markdown: Path
    rai: Path
    body: Path
    recommendations: Path

    def all(self) -> tuple[Path, Path, Path, Path]:
        """Every path: the full Markdown section, the JSON-LD, the body, the recommendations."""
        return (self.markdown, self.rai, self.body, self.recommendations)


def _beside(markdown: Path, rai: Path) -> CardPaths:
    """The paths of a card whose full section is ``markdown``: the body and recommendations beside it."""
    return CardPaths(markdown, rai, markdown.with_name(markdown.stem + BODY_SUFFIX + markdown.suffix),
                     markdown.with_name(markdown.stem + RECOMMENDATIONS_SUFFIX + markdown.suffix))


#: The suffixes of a Markdown file name given as ``--out``.
MARKDOWN_SUFFIXES = (".md", ".markdown")
#: Suffixes of file types that Python's built-in MIME table does not know, read as file names too.
_OTHER_FILE_SUFFIXES = frozenset({".jsonld", ".rst", ".yaml", ".yml", ".toml", ".ipynb"})


def _is_file_name(path: Path) -> bool:
    """Whether ``path`` ends in a known file type's suffix (Python's built-in MIME table, which reads no
    system file, or :data:`_OTHER_FILE_SUFFIXES`): ``notes.txt`` yes, ``card.v2`` no."""
    suffix = path.suffix.lower()
    return bool(suffix) and (suffix in _OTHER_FILE_SUFFIXES or
                             mimetypes.MimeTypes().guess_type(path.name, strict=False)[0] is not None)


def card_paths(out: str | os.PathLike | None, audit_dir: str | os.PathLike) -> CardPaths:
    """The card's paths for ``--out`` (see the module docstring).

    Raises:
        OutputError: ``out`` is an existing file that is not Markdown, or names another file type
            (``notes.txt``).
    """
    if out is None:
        folder = Path(audit_dir)
    else:
        out = Path(out)
        if out.suffix.lower() in MARKDOWN_SUFFIXES and not out.is_dir():
            return _beside(out, out.with_name(out.stem + ".rai.jsonld"))
        if not out.is_dir() and (out.exists() or _is_file_name(out)):
            raise OutputError(f"--out {out}: give a folder, or a Markdown file name ending in .md")
        folder = out
    return _beside(folder / CARD_MARKDOWN, folder / CARD_RAI)


def write_card(paths: CardPaths, markdown: str, fragment: dict[str, Any], *, body: str, recommendations: str,
               force: bool = False, protect: tuple[str | os.PathLike, ...] = ()) -> list[Path]:
    """Write the Markdown section, the RAI fragment, the section's body and its recommendations, all or
    nothing (:func:`mrclens.io_utils.atomic_write_files`: each to a temporary file beside its target, moved
    into place only when all four are written; the folder is created). When one cannot be written, none
    is replaced: with ``force``, the old card stays whole, never half old and half new.

    Returns:
        the paths written, in the order of :meth:`CardPaths.all`.

    Raises:
        OutputError: a file exists already and ``force`` is off (nothing is written), or a path
            cannot be written.
        MRCLensError: a path is one of the ``protect`` input files.
    """
    existing = [p for p in paths.all() if p.exists()]
    if existing and not force:
        names = ", ".join(str(p) for p in existing)
        raise OutputError(f"{names} exist{'s' if len(existing) == 1 else ''} already; choose another --out "
                          f"or pass --force to replace {'it' if len(existing) == 1 else 'them'}")
    def text(t: str) -> bytes:
        return (t if t.endswith("\n") else t + "\n").encode("utf-8")

    rai = json_text(fragment, what=paths.rai, ensure_ascii=False, indent=2) + "\n"
    return atomic_write_files([(paths.markdown, text(markdown)), (paths.rai, rai.encode("utf-8")),
                               (paths.body, text(body)), (paths.recommendations, text(recommendations))],
                              protect=protect)


def remove_stale_card(folder: str | os.PathLike) -> list[Path]:
    """Remove the card files in ``folder`` (:data:`CARD_MARKDOWN`, :data:`CARD_RAI`, :data:`CARD_BODY`,
    :data:`CARD_RECOMMENDATIONS`: where ``mrclens card``
    writes them without ``--out``) when a new ``results.json`` replaces the one they were drafted from,
    with one warning that names them and says how to draft them again. A card written elsewhere
    (``--out``) is not tracked and not touched.

    Returns:
        the paths removed.

    Raises:
        OutputError: a card file cannot be removed (the folder would hold a card of other results).
    """
    from mrclens.artifacts.folders import remove_entries

    stale = [p for p in card_paths(None, folder).all() if p.is_file()]
    remove_entries(stale, "drafted from the results.json this run replaced")
    if stale:
        log.warning(f"{folder}: removed {', '.join(p.name for p in stale)}, drafted by `mrclens card` from the "
                    f"results.json this run replaced; run `mrclens card {folder}` to draft the card of the new results")
    return stale


def read_rai_fragment(path: str | os.PathLike) -> dict[str, Any]:
    """Read a Croissant RAI fragment written by :func:`write_card` (or edited since), checked.

    Returns:
        the JSON-LD object.

    Raises:
        ArtifactError: the file is missing or not JSON, its ``@context`` does not bind ``rai`` to
            :data:`RAI_VOCABULARY`, or a property of :data:`RAI_PROPERTIES` is missing or not a list
            of text (the message names the file and the property).
    """
    obj = _files.read_json_object(path, _HINT)
    context = obj.get("@context")
    if not isinstance(context, dict) or context.get("rai") != RAI_VOCABULARY:
        raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(
            path=path, expected=f'an "@context" object that binds "rai" to {RAI_VOCABULARY}'))
    for name in RAI_PROPERTIES:
        value = obj.get(name)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ArtifactError(ArtifactMsg.BAD_FIELD.format(path=path, where="", field=name, expected="a list of text"))
    return obj


def fragment_json(fragment: dict[str, Any]) -> str:
    """The fragment as the file holds it (indented JSON), e.g. for printing."""
    return json.dumps(fragment, ensure_ascii=False, indent=2)
