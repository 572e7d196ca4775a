"""Count what `mrclens audit DATA` does with DATA on a cold cache up to the end of the load step (issue 43, item 4):
opens of the file, sha256 computations over its bytes, JSON decodes and SQuAD schema parses. The audit is
stopped right after the load (its perturbation step replaced by one that raises).

    PYTHONPATH=. python benchmarks/read_once_counts.py DATA [AUDIT ARGS]   # default args: DATA
"""
import builtins, hashlib, io, os, sys, tempfile, shutil
from pathlib import Path
from click.testing import CliRunner
import mrclens

from mrclens.cli import main
import mrclens.audit.span as span
import mrclens.formats.squad_json as sj

DATA = Path(sys.argv[1]).resolve()
data_bytes = DATA.read_bytes()
counts = {"opens": 0, "hashes": 0, "parses": 0, "json": 0}
real_open, real_io_open = builtins.open, io.open
def counting_open(file, *a, **k):
    if isinstance(file, (str, os.PathLike)) and Path(file).resolve() == DATA:
        counts["opens"] += 1
        if os.environ.get("WHERE"):
            import traceback; st=traceback.extract_stack()[:-1]; print("OPEN:", " <- ".join(f"{Path(f.filename).name}:{f.name}" for f in reversed(st[-6:])), file=sys.__stderr__)
    return real_open(file, *a, **k)
builtins.open = counting_open; io.open = counting_open
import mrclens.io_utils as iu
real_sha = iu.sha256_file
real_hashlib_sha = hashlib.sha256
# count every sha256 computed over DATA's bytes: wrap hashlib.sha256 objects, count those fed DATA's first block
class H:
    def __init__(self, *a):
        self.h = real_hashlib_sha(*a); self.fed = b"".join(x for x in a if isinstance(x, (bytes, bytearray, memoryview)))[:64]
        if a and bytes(a[0][:64]) == data_bytes[:64]: counts["hashes"] += 1; self.counted = True
        else: self.counted = False
    def update(self, b):
        if not self.counted and bytes(b[:64]) == data_bytes[:64]:
            counts["hashes"] += 1; self.counted = True
        self.h.update(b)
    def hexdigest(self): return self.h.hexdigest()
    def digest(self): return self.h.digest()
hashlib.sha256 = H
real_parse = sj.parse_squad_counted
def counting_parse(obj, file, *a, **k):
    if Path(file).resolve() == DATA: counts["parses"] += 1
    return real_parse(obj, file, *a, **k)
sj.parse_squad_counted = counting_parse
real_loads = sj.loads_unique
def counting_loads(text):
    counts["json"] += 1
    return real_loads(text)
sj.loads_unique = counting_loads
class Stop(Exception): pass
reached=[]
def stop(run):
    reached.append(True); raise Stop()
span.perturb_sets = stop
tmp = Path(tempfile.mkdtemp())
extra = sys.argv[2:] if len(sys.argv) > 2 else [str(DATA)]
res = CliRunner().invoke(main, ["audit", *extra, "--out", str(tmp / "out"), "--cache-dir", str(tmp / "cache"), "--profile", "quick", "-q"])
assert reached, res.output
print(counts)
shutil.rmtree(tmp)
