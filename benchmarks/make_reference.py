"""Write a reference file (issue 17): what audits read their data and their drops against.

The shipped reference ``mrclens/data/reference-squad-v1.1.json`` is made in two steps. First the
model-free figures of SQuAD v1.1 dev and train but the bundled sample's 40 articles (450 articles, 89,395
questions): the figures need no reader, train's articles make the reference's standard errors about a
third of dev's alone, and leaving the sample out keeps the data the margins are checked on out of the
reference it is read against; ``--long-strata`` adds the paragraphs of SQuAD v1.1 dev and of 60 train
articles joined two by two to the strata of 10 or more sentence units (at least 2,000 questions each, so
that "more" is reachable on long contexts). Then the drops of one SQuAD v1.1 audit per shipped reader
profile (a reader's strength changes its drops, so a quick-profile audit is read against the
quick-profile reference)::

    .venv/bin/python benchmarks/make_reference.py ../shared/data/squad/dev-v1.1.json.gz \\
        ../shared/data/squad/train-v1.1.json.gz --name "SQuAD v1.1" --out mrclens/data/reference-squad-v1.1.json \\
        --exclude mrclens/data/squad-v1.1-sample.json.gz \\
        --long-strata ../shared/data/squad/dev-v1.1.json.gz ../shared/data/squad/train-v1.1.json.gz \\
        --long-strata-articles 60      # 9 min on 2 cores, cold parse cache for the joined paragraphs
    .venv/bin/python benchmarks/make_reference.py --out mrclens/data/reference-squad-v1.1.json \\
        --audit AUDIT_DIR [--audit AUDIT_DIR ...]

Issue 54's verdict figures of Similarity and Keyword (``chance_corrected.shared_ngram_top``,
``chance_corrected.keyword_window_top``) joined the file by running the first command again (the audits the file
holds are kept): every figure already in it came out identical, value, standard error and strata (2026-12-02, at
814881d with the new figures; 9 min on 2 busy cores).

``--audit`` adds (or replaces) the audit's drops under its reader profile (``results.json`` →
``audit.options.profile``) in the file given by ``--out``, keeping everything else; several audits
of one profile (e.g. ``--seed 0`` and ``--seed 1``) are combined: the mean figure, and how much it
moves between training runs (:func:`mrclens.scoring.reference_builder.combine_reference_audits`). Any dataset
MRCLens reads can be a reference (e.g. the previous release of one's own data); pass the file to
``mrclens audit --reference FILE`` (or the audit directory itself: ``--reference AUDIT_DIR``).

``--add-runs`` adds the ``--audit`` folders to the runs the file keeps for their profile (each run's
figures are kept, ``run_ablations``), so a third training run costs one audit, not three.

``--figures PATH [PATH …]`` with DATA adds (or replaces) only those model-free figures in the file given by ``--out``,
keeping every other figure, the provenance and the audits as they are (with ``--long-strata``, the joined paragraphs
fill those figures' strata only), and records the step in ``provenance["added_figures"]``; it prints how far each
kept figure would move if it were written again from DATA. So a new figure joins the reference without moving the
figures that are pinned (issue 54, item 5: the Question figure)::

    .venv/bin/python benchmarks/make_reference.py ../shared/data/squad/dev-v1.1.json.gz \
        ../shared/data/squad/train-v1.1.json.gz --name "SQuAD v1.1" --out mrclens/data/reference-squad-v1.1.json \
        --exclude mrclens/data/squad-v1.1-sample.json.gz --figures chance_corrected.set_apart_top \
        --long-strata ../shared/data/squad/dev-v1.1.json.gz ../shared/data/squad/train-v1.1.json.gz \
        --long-strata-articles 60

``--remove-audit PROFILE`` takes a profile's audit out of the file (issue 41: the shipped reference keeps
``quick`` and ``paper-parallel``, the two profiles users need, each measured on its own runs).

``--structure AUDIT_DIR`` (repeatable) measures how much the drops move when only the data's
structure moves: audits of clean counterparts of another shape (``mrclens selftest``'s ``short``,
``long``, ``grouped`` audits and its plantings' ``clean-audit`` folders), all with one reader profile;
their spread around the reference (:func:`mrclens.scoring.structure_term.structure_spread`) is
stored as ``structure_sd`` in that profile's audit, and — marked as measured with that profile and its
truncation rule — in every other profile's audit of the file that has none of its own and whose truncated sets
are made by the same rule (one of another rule keeps what was measured with its own). Where the counterparts' context lengths are
known (``context_shape`` in their ``results.json``, or measured again on their recorded input files), the
terms are measured in two strata: counterparts of the reference's context length give ``structure_sd``, those
of another length ``structure_sd_other_shape`` (:meth:`mrclens.artifacts.reference.ReferenceAudit.for_shape`).
A stratum none of the counterparts is of keeps the term the file held for it: a profile measured only on
counterparts of the reference's length (``paper-parallel``: each of its audits trains for about 40 minutes on 2
cores) keeps, for another length, the term borrowed from the profile that measured it, marked so, and takes that
profile's again when it is measured again under its own truncation rule; its own stratum stays its own::

    .venv/bin/python benchmarks/make_reference.py --out mrclens/data/reference-squad-v1.1.json \
        --structure SELFTEST_OUT/short/audit --structure SELFTEST_OUT/position/clean-audit ...

``--restructure`` estimates every profile's structure terms again with the current rule
(:func:`mrclens.scoring.structure_term.restructure`: the Q-profile upper bound everywhere, issue 54, item 4) from the
counterparts' differences and standard errors the file keeps in each audit's ``provenance["structure"]``, without
their audits, and records the counterparts behind each stratum (``structure_counterparts``); a stratum without kept
differences keeps its terms (and says so)::

    .venv/bin/python benchmarks/make_reference.py --out mrclens/data/reference-squad-v1.1.json --restructure

The
file records its provenance: source file and sha256, this command, the git commit, the date and
the MRCLens version; each audit its own (source files, command, commit, date, reader F1).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="*", help="the reference dataset for the model-free figures (any format "
                                                "MRCLens reads; several files are read as one dataset, e.g. a "
                                                "dataset's dev and train files); without it, --out must exist and "
                                                "is updated")
    parser.add_argument("--name", help='how readings name it, e.g. "SQuAD v1.1" (required with DATA)')
    parser.add_argument("--out", required=True, help="the reference file to write (or update)")
    parser.add_argument("--audit", action="append", default=[], metavar="AUDIT_DIR",
                        help="an audit of the reference data whose drops to add under its reader profile")
    parser.add_argument("--add-runs", action="store_true",
                        help="combine the --audit folders with the runs the file already keeps for their profile "
                             "(run_ablations; same truncation rule, other seeds) instead of replacing them")
    parser.add_argument("--remove-audit", action="append", default=[], metavar="PROFILE",
                        help="remove that reader profile's audit from the file (a profile no user needs, rather than "
                             "one whose figures are borrowed or stale)")
    parser.add_argument("--cluster-factors", metavar="FILE",
                        help="the pooled article-clustering factors of benchmarks/drop_clustering.py --out, stored per "
                             "ablation in the audits' profile (ReferenceDrop.cluster_factor)")
    parser.add_argument("--structure", action="append", default=[], metavar="AUDIT_DIR",
                        help="an audit of a clean counterpart of another structure (selftest's short/long/grouped "
                             "audits, its plantings' clean-audit folders); all of one reader profile")
    parser.add_argument("--exclude", metavar="DATA",
                        help="leave out of DATA the articles whose titles DATA here holds (e.g. the bundled sample, "
                             "so that the reference never holds the data it is validated on)")
    parser.add_argument("--long-strata", metavar="DATA", nargs="+", default=[],
                        help="long-context strata (issue 41): DATA's paragraphs each joined with another paragraph of "
                             "its article (selftest's `long` shape, seed 0), their chance-corrected figures pooled "
                             "into the reference's strata of 10 or more sentence units (the articles --exclude "
                             "names left out)")
    parser.add_argument("--long-strata-articles", type=int, default=None, metavar="N",
                        help="with --long-strata: the first N articles of each DATA (file order) only")
    parser.add_argument("--figures", nargs="+", default=[], metavar="PATH",
                        help="with DATA: add (or replace) only these model-free figures (stats paths of "
                             "mrclens.scoring.model_free.FIGURES) in the existing --out, keeping everything else")
    parser.add_argument("--restructure", action="store_true",
                        help="estimate the structure terms again with the current rule from the differences and "
                             "standard errors each audit's provenance keeps (no audits needed)")
    parser.add_argument("--cache-dir", default=None, help="spaCy parse cache")
    args = parser.parse_args(argv)

    from mrclens import __version__
    from mrclens.artifacts.reference import read_reference, write_reference
    from mrclens.artifacts.results import read_results, utc_now
    from mrclens.io_utils import sha256_file
    from mrclens.scoring.reference_builder import combine_reference_audits, reference_audit_from_results

    from dataclasses import replace

    command = "benchmarks/make_reference.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.data:
        if not args.name:
            parser.error("--name is required with DATA")
        from mrclens.formats import load_dataset
        from mrclens.scoring.model_free import cluster_standard_errors, reference_from_stats
        from mrclens.stats import compute_stats, compute_stats_per_article

        from mrclens.squad import Dataset

        parts = [load_dataset(path) for path in args.data]
        articles = [a for part in parts for a in part.articles]
        left_out = set()
        if args.exclude:
            titles = {a.title for a in load_dataset(args.exclude).articles}
            left_out = {a.title for a in articles if a.title in titles}
            articles = [a for a in articles if a.title not in titles]
        data = Dataset(articles, parts[0].version)
        stats = compute_stats(data, cache_dir=args.cache_dir, progress=True, n_process=1)
        clusters = cluster_standard_errors(compute_stats_per_article(data, args.cache_dir))
        provenance = {"source": " + ".join(Path(p).name for p in args.data),
                      "sha256": " + ".join(sha256_file(p) for p in args.data), "command": command,
                      **({"excluded": {"source": Path(args.exclude).name, "sha256": sha256_file(args.exclude),
                                       "articles": len(left_out)}} if args.exclude else {}),
                      "commit": _commit(), "date": utc_now(), "mrclens_version": __version__}
        old = read_reference(args.out) if Path(args.out).exists() else None
        reference = reference_from_stats(stats, args.name, provenance, clusters)
        if args.figures:
            reference = _only_figures(reference, old, args, parser)
        if args.long_strata:
            excluded = {a.title for a in load_dataset(args.exclude).articles} if args.exclude else set()
            _add_long_strata(reference, args.long_strata, args.cache_dir, excluded, args.long_strata_articles,
                             only=args.figures or None)
        if old is not None:
            reference.audits = old.audits
    else:
        reference = read_reference(args.out)
    for profile in args.remove_audit:
        if reference.audits.pop(profile, None) is None:
            parser.error(f"--remove-audit: {args.out} has no {profile} audit (it has: {', '.join(reference.audits)})")
    by_profile: dict[str, list] = {}
    for audit_dir in args.audit:
        results = read_results(audit_dir)
        profile = (results.audit.options if results.audit is not None else {}).get("profile")
        if not profile:
            parser.error(f"{audit_dir}: results.json records no reader profile (not an audit that trained a reader)")
        sources = {i.role: Path(i.file).name for i in results.inputs if i.role in ("train", "dev")}
        provenance = {"sources": sources, "command": command, "commit": _commit(), "date": utc_now(),
                      "audit_options": {k: results.audit.options.get(k) for k in ("seed", "perturb_seeds", "max_steps")
                                        if k in results.audit.options}}
        provenance["audit_dir"] = str(audit_dir)
        one = reference_audit_from_results(results, profile, provenance)
        by_profile.setdefault(profile, []).append(replace(one, truncation=_truncation(audit_dir) or one.truncation))
    for profile, audits in by_profile.items():  # several audits of one profile: mean + between-run spread
        if args.add_runs and profile in reference.audits:
            try:
                kept = reference.audits[profile].run_audits()
            except ValueError as exc:
                parser.error(f"--add-runs: {exc}")
            seeds = {a.provenance.get("seed") for a in kept} & {a.provenance.get("seed") for a in audits}
            if seeds:
                parser.error(f"--add-runs: the {profile} reference already keeps a run of seed {sorted(seeds)}")
            audits = kept + audits
        rules = {a.truncation for a in audits}
        if len(rules) > 1:
            parser.error(f"the {profile} audits were perturbed with different truncation rules: {sorted(rules)}")
        reference.audits[profile] = replace(combine_reference_audits(audits), truncation=rules.pop())
    if args.cluster_factors:  # before the structure term: the counterparts' errors are the clustered ones
        _add_cluster_factors(reference, args.cluster_factors, command, parser)
    if args.structure:
        _add_structure(reference, args.structure, command, parser)
    if args.restructure:
        _restructure(reference, command)
    write_reference(reference, args.out)
    for path, fig in reference.figures.items():
        print(f"{path}: {fig.value:.2f} (n {fig.n:,}{'' if fig.std is None else f', std {fig.std:.2f}'}"
              f"{'' if fig.se is None else f', se by article {fig.se:.3f}'})")
    for profile, audit in reference.audits.items():
        print(f"audit {profile}: reader F1 {audit.baseline_f1}; "
              + ", ".join(f"{i} {d.value:.1f}%" for i, d in audit.ablations.items()))
    print(f"written to {args.out}")
    return 0


def _only_figures(computed, old, args, parser: argparse.ArgumentParser):
    """``--figures``: the reference ``--out`` holds (``old``) with the figures ``args.figures`` taken from
    ``computed`` (module docstring); prints how far each kept figure of ``old`` is from ``computed``'s."""
    from mrclens.scoring.model_free import FIGURES

    known = {spec.path for spec in FIGURES}
    unknown = [p for p in args.figures if p not in known]
    if unknown:
        parser.error(f"--figures: not a model-free figure: {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    if old is None:
        parser.error(f"--figures adds figures to an existing reference; {args.out} does not exist")
    missing = [p for p in args.figures if p not in computed.figures]
    if missing:
        parser.error(f"--figures: the data gives no {', '.join(missing)}")
    for path, fig in old.figures.items():
        if path not in args.figures and path in computed.figures:
            new = computed.figures[path]
            print(f"kept {path}: {fig.value:.4f} (written again from DATA: {new.value:.4f}, "
                  f"moved {new.value - fig.value:+.4f}; n {fig.n:,} / {new.n:,})")
    figures = {**old.figures, **{p: computed.figures[p] for p in args.figures}}
    step = {"figures": list(args.figures), "source": computed.provenance["source"],
            "sha256": computed.provenance["sha256"], "command": computed.provenance["command"],
            **({"excluded": computed.provenance["excluded"]} if "excluded" in computed.provenance else {}),
            "commit": computed.provenance["commit"], "date": computed.provenance["date"],
            "mrclens_version": computed.provenance["mrclens_version"]}
    provenance = {**old.provenance,
                  "added_figures": [*(s for s in old.provenance.get("added_figures", [])
                                      if not set(s.get("figures", ())) <= set(args.figures)), step]}
    from mrclens.artifacts.reference import Reference

    return Reference(name=old.name, provenance=provenance, figures=figures, audits=old.audits)


#: The strata of the chance-corrected figures that the joined paragraphs of ``--long-strata`` fill.
LONG_STRATA = ("10-14", "15+")


def _add_long_strata(reference, paths: list[str], cache_dir, excluded: set[str], max_articles: int | None,
                     only: list[str] | None = None) -> None:
    """Pool the chance-corrected figures of the paragraphs of ``paths`` joined two by two (selftest's ``long``
    shape, seed 0; articles titled in ``excluded`` left out, the first ``max_articles`` of each file) into the
    reference's :data:`LONG_STRATA` (module docstring), and record what was added. ``only``: those figures alone
    (``--figures``; the others keep their strata)."""
    import math

    from mrclens.formats import load_dataset
    from mrclens.io_utils import sha256_file
    from mrclens.scoring.model_free import _strata_of
    from mrclens.selftest.plantings import plant_shape
    from mrclens.stats import compute_stats

    from mrclens.squad import Dataset

    articles = []
    for path in paths:
        data = load_dataset(path)
        articles += [a for a in data.articles if a.title not in excluded][:max_articles]
    joined, _ = plant_shape(Dataset(articles, data.version), "long", 0, cache_dir=cache_dir, progress=True)
    stats = compute_stats(joined, cache_dir=cache_dir, progress=True, n_process=1)
    added = {}
    for fig_path, fig in reference.figures.items():
        if only is not None and fig_path not in only:
            continue
        extra = _strata_of(stats, fig_path)
        if not fig.strata or not extra:
            continue
        for s in LONG_STRATA:
            if s not in extra:
                continue
            n2, m2, sd2 = extra[s]
            n1, m1, sd1 = fig.strata.get(s, (0, 0.0, 0.0))
            n = n1 + n2
            mean = (n1 * m1 + n2 * m2) / n
            var = (n1 * (sd1 ** 2 + (m1 - mean) ** 2) + n2 * (sd2 ** 2 + (m2 - mean) ** 2)) / n
            fig.strata[s] = (n, round(mean, 4), round(math.sqrt(var), 4))
            added.setdefault(s, n2)
    if only is not None:  # the file's long strata stay as they were made; these figures' are recorded beside them
        reference.provenance["added_figures"][-1]["long_strata"] = {
            "source": " + ".join(Path(p).name for p in paths), "articles": len(articles), "questions_added": added}
        return
    reference.provenance["long_strata"] = {
        "source": " + ".join(Path(p).name for p in paths), "sha256": " + ".join(sha256_file(p) for p in paths),
        "articles": len(articles),
        "construction": "each paragraph joined with another paragraph of its article, drawn at random, before or "
                        "after it at random (mrclens selftest's `long` shape, seed 0); one context per question",
        "questions_added": added}


def _add_cluster_factors(reference, path: str, command: str, parser: argparse.ArgumentParser) -> None:
    """Store ``benchmarks/drop_clustering.py``'s pooled factors in the reference audit of their audits' profile."""
    from dataclasses import replace

    from mrclens.artifacts.results import read_results

    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    profiles = {(read_results(d).audit.options or {}).get("profile") for d in doc["audits"]}
    if len(profiles) != 1 or None in profiles or next(iter(profiles)) not in reference.audits:
        parser.error(f"--cluster-factors: the audits must share one reader profile the reference has, got {sorted(map(str, profiles))}")
    [profile] = profiles
    audit = reference.audits[profile]
    factors = {k: v["factor"] for k, v in doc["ablations"].items()}
    drops = {k: replace(d, cluster_factor=factors.get(k)) for k, d in audit.ablations.items()}
    note = {"method": doc["method"], "audits": doc["audits"], "command": command,
            "factors": factors, "clusters": {k: v["clusters"] for k, v in doc["ablations"].items()}}
    reference.audits[profile] = replace(audit, ablations=drops, provenance={**audit.provenance, "clustering": note})
    print(f"cluster factors ({profile}, {len(doc['audits'])} audits): "
          + ", ".join(f"{k} {v:.2f}" for k, v in factors.items()))


def _truncation(audit_dir: str) -> str | None:
    """The truncation rule an audit's sets were made with (``None``: the folder holds no perturbed sets)."""
    from mrclens.artifacts.layout import OutputLayout
    from mrclens.artifacts.manifest import truncation_rule_of

    return truncation_rule_of(OutputLayout(audit_dir).perturbed_dir)


def _add_structure(reference, dirs: list[str], command: str, parser: argparse.ArgumentParser) -> None:
    """Measure ``structure_sd`` on the counterparts' audits and store it (module docstring)."""
    from dataclasses import replace

    from mrclens.artifacts.results import read_results, utc_now
    from mrclens.scoring.structure_term import structure_spread

    results = [read_results(d) for d in dirs]
    profiles = {(r.audit.options if r.audit is not None else {}).get("profile") for r in results}
    if len(profiles) != 1 or None in profiles:
        parser.error(f"--structure audits must share one reader profile, got {sorted(map(str, profiles))}")
    [profile] = profiles
    if profile not in reference.audits:
        parser.error(f"--structure: the reference has no {profile} audit to measure the counterparts against")
    rule = reference.audits[profile].truncation
    other_rule = [d for d in dirs if _truncation(d) not in (rule, None)]
    if other_rule:
        parser.error(f"--structure: {', '.join(other_rule)} perturbed with another truncation rule than the {profile} "
                     f"reference audit's ({rule})")
    shapes = counterpart_shapes(results, dirs, reference)
    unknown = [d for d, s in zip(dirs, shapes) if s is None]
    if unknown and len(unknown) < len(dirs):
        parser.error(f"--structure: the context length of {', '.join(unknown)} is not known (no context_shape in its "
                     "results.json and no readable input file), so its stratum cannot be told")
    flags = None if unknown else [s.differs for s in shapes]
    before = reference.audits[profile]
    audit, details = structure_spread(results, before, other_shape=flags)
    details.update(sources=[str(d) for d in dirs], command=command, commit=_commit(), date=utc_now(),
                   shapes=[None if s is None else f"{s.sentences} vs {s.reference_sentences}" for s in shapes])
    measured = {stratum for stratum, _ in STRATA if flags is not None and not details[stratum].get("pooled")}
    kept = []
    for stratum, attr in STRATA:  # a stratum none of these counterparts is of keeps the term the file held for it
        if flags is not None and stratum not in measured and getattr(before, attr):
            audit = _with_stratum(audit, before, attr)
            details[stratum] = (_stratum_note(before, stratum) or before.provenance.get("structure", {}).get(stratum)
                                or {"kept": "the term the file held"})
            kept.append(attr)
    reference.audits[profile] = replace(audit, provenance={**audit.provenance, "structure": details})
    for other, a in reference.audits.items():
        if other == profile or a.truncation != rule:  # one whose sets were made by another rule keeps the terms
            continue  # measured with that rule
        note = {"measured_with_profile": profile, "truncation": rule, "sources": details["sources"], "command": command}
        held = a.provenance.get("structure", {})
        if not a.structure_sd or "measured_with_profile" in held:  # borrows both strata
            reference.audits[other] = replace(_with_stratum(_with_stratum(a, audit, "structure_sd"), audit,
                                                            "structure_sd_other_shape"),
                                              provenance={**a.provenance, "structure": note})
            continue
        for stratum, attr in STRATA:  # a profile with counterparts of its own keeps its figures, stratum by stratum
            if stratum in measured and "measured_with_profile" in held.get(stratum, {}):
                a = replace(_with_stratum(a, audit, attr),
                            provenance={**a.provenance, "structure": {**held, stratum: note}})
                held = a.provenance["structure"]
        reference.audits[other] = a
    strata = [("", audit.structure_sd, "structure_sd")]
    if flags is not None:
        like = sum(not f for f in flags)
        strata = [(f" the reference's context length ({like})", audit.structure_sd, "structure_sd"),
                  (f" another length ({len(flags) - like})", audit.structure_sd_other_shape, "structure_sd_other_shape")]
    for label, cats, attr in strata:
        if attr in kept:
            label += ", none of them: the term the file held is kept"
        print(f"structure ({profile}, {len(results)} counterparts{';' if label else ''}{label}): "
              + ", ".join(f"{c} {v:.1f}" for c, v in cats.items()) + "; "
              + ", ".join(f"{k} {getattr(d, attr):.1f}" for k, d in audit.ablations.items()
                          if getattr(d, attr) is not None))


#: The structure term's two strata: their key in the provenance and their field in the reference audit.
STRATA = (("like_shape", "structure_sd"), ("other_shape", "structure_sd_other_shape"))
#: Each stratum's field counting its counterparts (ReferenceAudit.structure_counterparts).
COUNTS = {"structure_sd": "structure_counterparts", "structure_sd_other_shape": "structure_counterparts_other_shape"}


def _with_stratum(audit, source, attr: str):
    """``audit`` with one stratum's structure terms (per category and per ablation) and its count of counterparts
    copied from ``source``."""
    from dataclasses import replace

    drops = {k: replace(d, **{attr: getattr(source.ablations[k], attr)}) if k in source.ablations else d
             for k, d in audit.ablations.items()}
    return replace(audit, ablations=drops, **{attr: dict(getattr(source, attr)),
                                              COUNTS[attr]: getattr(source, COUNTS[attr])})


def _restructure(reference, command: str) -> None:
    """``--restructure``: every audit's structure terms estimated again from the differences its provenance keeps
    (module docstring); prints old and new terms per profile, stratum and category."""
    from mrclens.artifacts.results import utc_now
    from mrclens.scoring.structure_term import restructure

    for profile, before in list(reference.audits.items()):
        after, done = restructure(before)
        if done:
            held = after.provenance["structure"]
            after.provenance["structure"] = {**held, "restructured": {"command": command, "commit": _commit(),
                                                                      "date": utc_now(), "strata": done}}
        reference.audits[profile] = after
        for stratum, attr in STRATA:
            old, new = getattr(before, attr), getattr(after, attr)
            if not new:
                continue
            state = "re-estimated" if stratum in done or "all" in done else "kept (no differences kept)"
            print(f"structure ({profile}, {stratum}, {getattr(after, COUNTS[attr])} counterparts, {state}): "
                  + ", ".join(f"{c} {old.get(c, float('nan')):.2f} -> {v:.2f}" for c, v in new.items()))


def _stratum_note(audit, stratum: str) -> dict | None:
    """Where ``audit``'s term of ``stratum`` came from, when it was measured with another profile (``None``: its own)."""
    held = audit.provenance.get("structure", {})
    if "measured_with_profile" in held:
        return {k: held[k] for k in ("measured_with_profile", "sources", "command") if k in held}
    inner = held.get(stratum, {})
    return dict(inner) if "measured_with_profile" in inner else None


def counterpart_shapes(results: list, dirs: list[str], reference) -> list:
    """Each counterpart's median context length beside the reference's
    (:class:`mrclens.scoring.model_free.ContextShape`): from its ``results.json`` (``context_shape``), else
    measured again on the input files its audit recorded (``train``, ``dev``, each still with the sha256 the
    audit recorded; the spaCy parse cache makes this seconds for an audited dataset); ``None`` where neither is
    there."""
    import hashlib
    from pathlib import Path

    from mrclens.formats import load_dataset
    from mrclens.scoring.model_free import ContextShape, context_shape
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats

    out = []
    for r, d in zip(results, dirs):
        if r.context_shape is not None:
            out.append(ContextShape(r.context_shape["sentences"], r.context_shape["reference_sentences"]))
            continue
        recorded = [i for i in r.inputs if i.role in ("train", "dev")]
        files = [i.file for i in recorded if Path(i.file).is_file()
                 and i.sha256 in (None, hashlib.sha256(Path(i.file).read_bytes()).hexdigest())]
        if not files or len(files) < len(recorded):
            out.append(None)
            continue
        sets = [load_dataset(f) for f in files]
        stats = compute_stats(Dataset([a for s in sets for a in s.articles], sets[0].version), n_process=1)
        out.append(context_shape(stats, reference))
        print(f"{d}: context length measured again from {', '.join(files)}: {out[-1]}")
    return out


if __name__ == "__main__":
    raise SystemExit(main())
