"""Do the chance-corrected ranks read with spaCy's sentencizer agree with English? (MRCLens issue 32, part 3)

On XQuAD (Artetxe et al. 2020: 240 SQuAD v1.1 dev paragraphs, 1,190 questions, translated),
each rank of :mod:`mrclens.stats.chance` is computed for Spanish, Russian and Arabic with
:func:`mrclens.stats.sentencizer.sentencizer_ranks` (``spacy.blank(lang)`` + the rule-based
sentencizer), and for the English originals (the same question ids cut from SQuAD v1.1 dev) by the
normal English path (:func:`mrclens.stats.compute_stats`, ``en_core_web_sm``'s senter). A rank whose
difference from English stays within ``RANK_MARGIN`` (5 points) on all three languages may run
(``mrclens.stats.sentencizer.FIGURES``).

    python benchmarks/bench_sentencizer_ranks.py [SHARED_DATA_DIR]    # default: ../shared/data

Prints a Markdown table (figure x language: value, English value, difference) and the mean number
of sentence units per context of each.
"""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
import time
from pathlib import Path

from mrclens.formats import load_dataset
from mrclens.scoring.model_free import RANK_MARGIN
from mrclens.stats import compute_stats
from mrclens.stats.chance import RANK_FIGURES
from mrclens.stats.sentencizer import LANGUAGES, sentencizer_ranks

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def english_cut(data: Path, out: Path) -> Path:
    """SQuAD v1.1 dev cut to XQuAD's question ids (XQuAD's paragraphs, in English), written to ``out``."""
    with gzip.open(data / "xquad" / "xquad.es.json.gz", "rt", encoding="utf-8") as f:
        ids = {q["id"] for a in json.load(f)["data"] for p in a["paragraphs"] for q in p["qas"]}
    with gzip.open(data / "squad" / "dev-v1.1.json.gz", "rt", encoding="utf-8") as f:
        dev = json.load(f)
    articles = []
    for a in dev["data"]:
        paragraphs = [{"context": p["context"], "qas": [q for q in p["qas"] if q["id"] in ids]} for p in a["paragraphs"]]
        paragraphs = [p for p in paragraphs if p["qas"]]
        if paragraphs:
            articles.append({"title": a["title"], "paragraphs": paragraphs})
    out.write_text(json.dumps({"version": "1.1", "data": articles}), encoding="utf-8")
    return out


def main(data: Path) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="mrclens-sentencizer-bench-"))
    english = load_dataset(english_cut(data, tmp / "xquad.en.json"))
    t = time.perf_counter()
    en = compute_stats(english, cache_dir=tmp / "cache", progress=False, n_process=1)["chance_corrected"]
    print(f"English (SQuAD v1.1 dev cut to XQuAD's ids, {english.counts()['questions']:,} questions): "
          f"{time.perf_counter() - t:.1f} s", file=sys.stderr)
    found = {}
    for lang in LANGUAGES:
        dataset = load_dataset(data / "xquad" / f"xquad.{lang}.json.gz")
        t = time.perf_counter()
        found[lang] = sentencizer_ranks(dataset, lang)[0]
        print(f"{lang}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
    print(f"| figure | language | value | English | difference | within ±{RANK_MARGIN:g} |")
    print("|---|---|---|---|---|---|")
    for name in RANK_FIGURES:
        for lang in LANGUAGES:
            v, e = found[lang][name]["mean"], en[name]["mean"]
            print(f"| {name} | {lang} | {v:.1f} | {e:.1f} | {v - e:+.1f} | {'yes' if abs(v - e) <= RANK_MARGIN else 'no'} |")
    print()
    print("| | " + " | ".join(("en",) + LANGUAGES) + " |")
    print("|---|" + "---|" * (1 + len(LANGUAGES)))
    print("| random_sentence_share_pct (mean of 1/units, %) | "
          + " | ".join(f"{s['random_sentence_share_pct']:.1f}" for s in [en, *(found[lang] for lang in LANGUAGES)]) + " |")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA)
