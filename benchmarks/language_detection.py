"""How the language check reads real data, article by article (MRCLens issue 42).

For each file: every article (title) on its own is read with :func:`mrclens.languages.detect_languages`
(all of its paragraphs up to the sample size) and the script prints how many articles read as
English, the lowest English shares of the contexts' and questions' text, and, over all windows of
the file's contexts, how many windows Lingua alone reads as another language and how many of those
the English function words read back as English (:data:`mrclens.languages.FUNCTION_WORD_PCT`).
Whole files are read with :func:`mrclens.languages.file_languages` (the command's check).

The function-word threshold was chosen on SQuAD v1.1 dev and XQuAD Spanish (their percentiles are
printed with ``--percentiles``); SQuAD v1.1 train, MRQA, Natural Questions and XQuAD ru/ar/th are the
data it was not chosen on.

    python benchmarks/language_detection.py [--percentiles] [FILE ...]   # default: the files below
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from mrclens import languages as L
from mrclens.formats import load_dataset
from mrclens.squad import Dataset

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEFAULT = ["squad/dev-v1.1.json.gz", "xquad/xquad.es.json.gz", "squad/train-v1.1.json.gz", "mrqa/dev/SQuAD.jsonl.gz",
           "mrqa/dev-v2-20190529/DROP.jsonl.gz", "mrqa/dev-v2-20190529/DuoRC.ParaphraseRC.jsonl.gz",
           "natural-questions/nq_dev_subset_v2.json.gz", "natural-questions-simplified/dev_sample.jsonl.gz",
           "xquad/xquad.ru.json.gz", "xquad/xquad.ar.json.gz", "xquad/xquad.th.json.gz"]


def windows_of(dataset: Dataset) -> list[str]:
    contexts = {p.context for _, p in dataset.iter_paragraphs()}
    return [w for c in sorted(contexts) for w in L.windows(L.prose(c))]


def main(files: list[str], percentiles: bool) -> None:
    for f in files:
        path = Path(f) if Path(f).exists() else DATA / f
        t = time.perf_counter()
        data = load_dataset(path)
        whole = L.file_languages(path, cache_dir=False)
        reports = [L.detect_languages(Dataset([a]), a.title) for a in data.articles]
        english = sum(r.readable for r in reports)
        low_c = min(reports, key=lambda r: r.share("contexts"))
        low_q = min(reports, key=lambda r: r.share("questions"))
        ws = windows_of(data)
        lingua = L.detect(ws)
        pct = [L.function_word_pct(w) for w in ws]
        other = [p for lang, p in zip(lingua, pct) if lang != L.ENGLISH]
        rescued = sum(p >= L.FUNCTION_WORD_PCT for p in other)
        print(f"{f}: file {whole.summary()} (readable: {whole.readable}); articles read as English {english}/{len(reports)}; "
              f"lowest English share: contexts {low_c.share('contexts'):.1f} % ({low_c.source}), "
              f"questions {low_q.share('questions'):.1f} % ({low_q.source}); windows {len(ws):,}: Lingua reads "
              f"{len(other):,} as another language, {rescued:,} of them read as English by the function words; "
              f"{time.perf_counter() - t:.0f} s")
        if percentiles:
            q = sorted(pct)
            print("  function-word share of the windows (%): "
                  + ", ".join(f"p{p} {q[int(p / 100 * (len(q) - 1))]:.1f}" for p in (1, 5, 50, 95, 99)) + f", max {q[-1]:.1f}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--percentiles"]
    main(args or DEFAULT, "--percentiles" in sys.argv)
