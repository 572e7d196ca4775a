"""``mrclens-ci-check``: the CI gate's console script, which the pre-commit hook runs (``language: python``).

It runs the gate's one script, ``mrclens/data/ci-check.sh`` (installed with the package; the GitHub Action runs the
same file), with bash, passing every argument on, and exits with its status (0 every rule passes, 1 a rule fails,
2 bad input or usage, 3 a bug). ``mrclens`` is run as ``python -m mrclens.cli`` with this interpreter, so nothing
needs to be on PATH; ``$MRCLENS`` set beforehand wins. Needs bash (any Linux or macOS; Git Bash on Windows).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

#: The gate's script, installed with the package data.
SCRIPT = Path(__file__).resolve().parents[1] / "data" / "ci-check.sh"


def main(argv: list[str] | None = None) -> int:
    """Run :data:`SCRIPT` with ``argv`` (default: the command line's arguments); returns its exit status
    (2 when bash is not found: the message says so)."""
    args = sys.argv[1:] if argv is None else argv
    bash = shutil.which("bash")
    if bash is None:
        print("mrclens-ci-check: bash is not on PATH; it runs mrclens/data/ci-check.sh, a bash script", file=sys.stderr)
        return 2
    env = dict(os.environ)
    env.setdefault("MRCLENS", f"{sys.executable} -m mrclens.cli")
    return subprocess.run([bash, str(SCRIPT), *args], env=env).returncode


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
