# Set-up and entry points. Every target is idempotent: the virtual environment is
# (re)built only when setup.cfg / constraints.txt change.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
# Where pip looks for torch (empty: pip's own index; e.g. https://download.pytorch.org/whl/cpu).
TORCH_INDEX_URL ?=
STAMP   = $(VENV)/.mrclens-installed

.PHONY: install demo test test-slow browser-deps clean

$(STAMP): setup.cfg pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# torch pinned (an unpinned torch may pull several GB of CUDA packages). Which build comes depends on
	# the index: where it offers the CPU wheel first (the CI machine) plain pip gets it; PyPI on Linux
	# serves the CUDA build under this pin. TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
	# gets the CPU build anywhere (used for torch only).
	$(PY) -m pip install -q torch==2.13.0 $(if $(TORCH_INDEX_URL),--index-url $(TORCH_INDEX_URL))
	$(PY) -m pip install -q -c constraints.txt -e '.[test,reader]'
	touch $(STAMP)

install: $(STAMP)

## The main job on the bundled real sample (SQuAD v1.1 subset): a full bias audit.
## Re-running reuses finished steps; outputs go to audit-sample/.
demo: install
	$(VENV)/bin/mrclens audit --out audit-sample

## The import contract (setup.cfg [importlinter]: the floors of the package), then the test suite,
## with the docstring examples of every mrclens module (tests/test_docstring_examples.py) and the
## strict build of the documentation site, `mkdocs build --strict`, in which a broken link or anchor
## fails (tests/test_docs_site.py) (installs Chromium for the browser test when it can).
## The tests marked `slow` (setup.cfg [tool:pytest]: more than about 2 s each: end-to-end audits, the wheel,
## the hook, real-data sweeps) are left out of `make test`, a contributor's loop; `make test-slow` runs them, and
## CI (.ci/run) runs both, so together they are the whole suite.
test: install browser-deps
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -q -p no:cacheprovider -m "not slow"

test-slow: install browser-deps
	$(PY) -m pytest -q -p no:cacheprovider -m slow

browser-deps:
	@command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || \
	  ( (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
	    || echo "note: could not install chromium/chromium-driver; browser tests will skip" )

clean:
	rm -rf $(VENV) build site *.egg-info .pytest_cache
