"""Choose the n-gram length of the Similarity figure and the window of the Keyword figure on one article set, and
validate them on others (issue 54): :data:`mrclens.stats.shared_ngram.MIN_CONTENT_WORDS`, :data:`mrclens.stats.
keyword_window.WINDOW`.

Each candidate value is scored by how many planted percent of the questions one SD of clean data spans: the SD of the
figure's difference between a random 40-article subset of SQuAD v1.1 train and the rest of the corpus (SQuAD v1.1 dev
and train but the bundled sample's articles; question-weighted, no standardisation), over the figure's slope, the
planted-minus-clean difference per percent of questions planted with the family's ``mrclens selftest`` planting
(``overlap``, ``keywords``) at 100 %. The smaller, the sooner a planting clears the band. **Fit**: clean subsets 0–29
and the plantings of the 40-article train subset of seed 100 (as ``benchmarks/planted_share_scale.py`` draws it);
**validation**: clean subsets 30–79, the plantings of seed 101 and of the bundled sample (seed 0). The n-gram length
is at most the number of distinct content words of three quarters of the corpus's questions (so a question copied
into its sentence reaches it in most questions; printed), and among those the one with the smallest spread on the fit
set; the window likewise among ``--windows``::

    PYTHONPATH=. .venv/bin/python benchmarks/cue_parameters.py ../shared/data/squad/dev-v1.1.json.gz \\
        ../shared/data/squad/train-v1.1.json.gz     # about 10 min on 2 busy cores, parses cached
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict


def question_values(dataset, lengths, windows, cache_dir=None) -> list[tuple[str, dict]]:
    """``(article title, {("ngram", N) | ("window", W): figure})`` per answerable question of ``dataset`` whose context
    has two sentence units or more, with :mod:`mrclens.stats.shared_ngram`'s and :mod:`mrclens.stats.keyword_window`'s
    functions at each candidate (units and tokens as :func:`mrclens.stats.paragraph.paragraph_figures` takes them)."""
    import bisect

    from mrclens.parsing import parse_texts
    from mrclens.stats.keyword_window import answer_token_range, keyword_window_top
    from mrclens.stats.shared_ngram import shared_content_run, top_of_runs
    from mrclens.stats.text import word_token_spans, word_tokens
    from mrclens.units import answer_unit_indices, sentence_units

    paragraphs = [(a.title, p) for a in dataset.visible().articles for p in a.paragraphs]
    parsed = parse_texts([p.context for _, p in paragraphs], sentences=True, cache_dir=cache_dir, progress=False)
    rows = []
    for (title, p), cp in zip(paragraphs, parsed):
        us = sentence_units(p.context, cp, [(a.answer_start, a.answer_end) for q in p.questions for a in q.answers])
        if len(us) < 2:
            continue
        words, starts, ends = word_token_spans(p.context)
        unit_words = [words[bisect.bisect_left(starts, s):bisect.bisect_right(ends, e)] for s, e in us]  # as PassageIndex
        for q in p.questions:
            if not q.answers:
                continue
            a = q.answers[0]
            found = answer_unit_indices(us, [(a.answer_start, a.answer_end)])
            if not found:
                continue
            qw = word_tokens(q.question)
            runs = [shared_content_run(qw, uw) for uw in unit_words]
            got = {("ngram", n): top_of_runs(runs, min(found), n) for n in lengths}
            span = answer_token_range(starts, ends, a.answer_start, a.answer_end)
            for w in windows:
                got[("window", w)] = None if span is None else keyword_window_top(qw, words, *span, window=w)
            rows.append((title, got))
    return rows


def _mean(rows, key, titles=None) -> float:
    vals = [g[key] for t, g in rows if g[key] is not None and (titles is None or t in titles)]
    return sum(vals) / len(vals)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs=2, help="SQuAD v1.1 dev and train")
    parser.add_argument("--lengths", default="2,3,4,5,6")
    parser.add_argument("--windows", default="2,3,4,5,7")
    parser.add_argument("--subsets", type=int, default=80)
    parser.add_argument("--fit", type=int, default=30)
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)

    from mrclens.audit.span import SAMPLE_PATH
    from mrclens.formats import load_dataset
    from mrclens.selftest.plantings import plant_graded
    from mrclens.squad import Dataset
    from mrclens.stats.text import is_content_word, word_tokens

    lengths = [int(x) for x in args.lengths.split(",")]
    windows = [int(x) for x in args.windows.split(",")]
    t0 = time.perf_counter()
    dev, train = (load_dataset(p) for p in args.data)
    sample = load_dataset(SAMPLE_PATH)
    held = {a.title for a in sample.articles}
    corpus = Dataset([a for d in (dev, train) for a in d.articles if a.title not in held], dev.version)
    rows = question_values(corpus, lengths, windows, args.cache_dir)
    print(f"corpus: {len(rows):,} questions in {time.perf_counter() - t0:.0f} s", flush=True)
    counts = sorted(len({w for w in word_tokens(q.question) if is_content_word(w)})
                    for a in corpus.articles for p in a.paragraphs for q in p.questions)
    quarter = counts[len(counts) // 4]
    print(f"distinct content words per question: three quarters of the questions hold {quarter} or more "
          f"(median {counts[len(counts) // 2]})", flush=True)

    by_article: dict[str, dict] = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
    keys = [("ngram", n) for n in lengths] + [("window", w) for w in windows]
    for title, got in rows:
        for k in keys:
            if got[k] is not None:
                cell = by_article[title][k]
                cell[0] += got[k]
                cell[1] += 1
    pool = sorted({a.title for a in train.articles} - held)  # the clean subsets, drawn as benchmarks/false_flags.py does
    articles = [a for a in train.articles if a.title not in held]  # the plantings', as benchmarks/planted_share_scale.py
    subsets = [set(random.Random(i).sample(pool, 40)) for i in range(args.subsets)]

    def clean_sd(key, which) -> float:
        diffs = []
        for i in which:
            mine = [by_article[t][key] for t in by_article if t in subsets[i]]
            rest = [by_article[t][key] for t in by_article if t not in subsets[i]]
            diffs.append(sum(s for s, _ in mine) / sum(n for _, n in mine) - sum(s for s, _ in rest) / sum(n for _, n in rest))
        m = sum(diffs) / len(diffs)
        return math.sqrt(sum((d - m) ** 2 for d in diffs) / (len(diffs) - 1))

    slopes: dict[tuple, dict] = defaultdict(dict)
    for planting, kind in (("overlap", "ngram"), ("keywords", "window")):
        for seed in (100, 101, 0):
            data = sample if seed == 0 else Dataset(random.Random(seed).sample(articles, 40), train.version)
            graded, clean = plant_graded(data, planting, (1.0,), seed, cache_dir=args.cache_dir)
            planted_rows = question_values(graded[1.0], lengths, windows, args.cache_dir)
            clean_rows = question_values(clean, lengths, windows, args.cache_dir)
            for k in keys:
                if k[0] == kind:
                    slopes[k][seed] = (_mean(planted_rows, k) - _mean(clean_rows, k)) / 100
            print(f"{planting} seed {seed} read ({time.perf_counter() - t0:.0f} s)", flush=True)

    fit, valid = range(args.fit), range(args.fit, args.subsets)
    chosen = {}
    for kind, allowed in (("ngram", [n for n in lengths if n <= quarter]), ("window", windows)):
        print(f"\n{kind}: reference value; clean SD (fit / validation subsets); slope per planted % (seed 100 fit / "
              f"101 / sample); one clean SD in planted % of the questions (fit / validation)")
        best = None
        for k in [k for k in keys if k[0] == kind]:
            ref = _mean(rows, k)
            sd_fit, sd_val = clean_sd(k, fit), clean_sd(k, valid)
            s = slopes[k]
            noise_fit = sd_fit / s[100] if s[100] > 0 else math.inf
            noise_val = sd_val / ((s[101] + s[0]) / 2) if s[101] + s[0] > 0 else math.inf
            mark = "" if k[1] in allowed else " (not allowed: more than a quarter of the questions hold fewer content words)"
            print(f"  {kind} {k[1]}: {ref:6.2f}; SD {sd_fit:.2f} / {sd_val:.2f}; slope {s[100]:.3f} / {s[101]:.3f} / "
                  f"{s[0]:.3f}; {noise_fit:.1f} % / {noise_val:.1f} %{mark}", flush=True)
            if k[1] in allowed and (best is None or noise_fit < best[1]):
                best = (k[1], noise_fit)
        chosen[kind] = best[0]
    print(f"\nchosen on the fit set: n-gram of at least {chosen['ngram']} content words, window of {chosen['window']} "
          f"tokens ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
