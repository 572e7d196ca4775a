"""Write a reference file of model-free figures (issue 17): what audits read their data against.

The shipped reference ``mrclens/data/reference-squad-v1.1-dev.json`` is made with:

    .venv/bin/python benchmarks/make_reference.py ../shared/data/squad/dev-v1.1.json.gz \\
        --name "SQuAD v1.1 dev" --out mrclens/data/reference-squad-v1.1-dev.json

Any dataset MRCLens reads can be a reference (e.g. the previous release of one's own data); pass
the file to ``mrclens audit --reference FILE``. The file records its provenance: source file and
sha256, this command, the git commit, the date and the MRCLens version.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="the reference dataset (any format MRCLens reads)")
    parser.add_argument("--name", required=True, help='how readings name it, e.g. "SQuAD v1.1 dev"')
    parser.add_argument("--out", required=True, help="the reference file to write")
    parser.add_argument("--cache-dir", default=None, help="spaCy parse cache")
    args = parser.parse_args(argv)

    from mrclens import __version__
    from mrclens.artifacts.reference import write_reference
    from mrclens.artifacts.results import utc_now
    from mrclens.formats import load_dataset
    from mrclens.io_utils import sha256_file
    from mrclens.scoring.model_free import reference_from_stats
    from mrclens.stats import compute_stats

    stats = compute_stats(load_dataset(args.data), cache_dir=args.cache_dir, progress=True, n_process=1)
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).resolve().parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    provenance = {"source": Path(args.data).name, "sha256": sha256_file(args.data),
                  "command": "benchmarks/make_reference.py " + " ".join(argv if argv is not None else sys.argv[1:]),
                  "commit": commit, "date": utc_now(), "mrclens_version": __version__}
    reference = reference_from_stats(stats, args.name, provenance)
    write_reference(reference, args.out)
    for path, fig in reference.figures.items():
        print(f"{path}: {fig.value:.2f} (n {fig.n:,}{'' if fig.std is None else f', std {fig.std:.2f}'})")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
