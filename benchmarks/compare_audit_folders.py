"""Compare two audit output folders file by file, ignoring timing fields (issue 43, item 4: the outputs of the
same audit before and after a change must be byte-identical except timings).

    python benchmarks/compare_audit_folders.py BEFORE_DIR AFTER_DIR [BEFORE_SRC AFTER_SRC]

BEFORE_SRC / AFTER_SRC: the two checkouts, whose paths the manifests record (replaced by <src> in both).
"""
import gzip, json, re, sys
from pathlib import Path

TIMING_KEYS = {"seconds", "minutes", "examples_per_s", "peak_rss_mb", "peak_gpu_mb", "step_seconds", "wall_seconds",
               "started", "finished", "created", "timestamp", "elapsed", "duration_s"}

def strip(obj, path=""):
    if isinstance(obj, dict):
        return {k: ("<timing>" if k in TIMING_KEYS or k.endswith("_seconds") or k.endswith("_s") and "per" not in k else strip(v, f"{path}.{k}"))
                for k, v in obj.items()}
    if isinstance(obj, list):
        return [strip(v, path) for v in obj]
    return obj

def load(p):
    b = p.read_bytes()
    if p.suffix == ".gz": b = gzip.decompress(b)
    return b

a, b = Path(sys.argv[1]), Path(sys.argv[2])
# where each run's code lay (the bundled reference file's path is recorded): replaced by <src> in both
roots = (sys.argv[3].encode(), sys.argv[4].encode()) if len(sys.argv) > 4 else (b"", b"")
fa = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
fb = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
print(f"{len(fa)} files before, {len(fb)} after; same names: {fa == fb}")
for extra in sorted(set(fa) ^ set(fb)): print("  only in one:", extra)
same = differ_timing = 0
for rel in fa:
    if rel not in fb: continue
    x, y = load(a / rel), load(b / rel)
    if roots[0]:
        x, y = x.replace(roots[0], b"<src>"), y.replace(roots[1], b"<src>")
    if x == y:
        same += 1; continue
    if rel.suffix in (".json",) or rel.name.endswith(".json.gz"):
        jx, jy = strip(json.loads(x)), strip(json.loads(y))
        if jx == jy:
            differ_timing += 1; print(f"  {rel}: differs only in timing fields"); continue
        # show the first differing paths
        def diff(u, v, path=""):
            if type(u) != type(v): yield path; return
            if isinstance(u, dict):
                for k in sorted(set(u) | set(v)):
                    if k not in u or k not in v: yield f"{path}.{k}"
                    else: yield from diff(u[k], v[k], f"{path}.{k}")
            elif isinstance(u, list):
                if len(u) != len(v): yield path + "[len]"
                for i, (p, q) in enumerate(zip(u, v)): yield from diff(p, q, f"{path}[{i}]")
            elif u != v: yield path
        print(f"  {rel}: DIFFERS beyond timings at", list(diff(jx, jy))[:10])
    elif rel.suffix == ".html":
        # numbers with 's' / 'min' units are timings
        def t(s):
            s = s.decode()
            s = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "<time>", s)  # "created"
            head, sep, rest = s.partition("<h3>Step times (seconds)</h3>")  # the step times table
            table, end, tail = rest.partition("</table>")
            return head + sep + re.sub(r"<td>[\d.]+</td>", "<td><t></td>", table) + end + tail
        if t(x) == t(y): differ_timing += 1; print(f"  {rel}: differs only in timings")
        else: print(f"  {rel}: DIFFERS beyond timings")
    else:
        print(f"  {rel}: DIFFERS (binary/other, {len(x)} vs {len(y)} bytes)")
print(f"byte-identical: {same}; differing only in timing fields: {differ_timing}")
