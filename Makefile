# The quickstart's two commands (README.md) and CI's (`.ci/run`) live here so that all three stay the same.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
CONFIG ?= configs/sugoroku-demo.toml

.PHONY: demo test install lint bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Builds the Rust engine (release) and installs simharness with its test tools into .venv. The engine
# is one abi3 module (_engine.abi3.so); a per-version module left by an older build would be imported
# before it, so it goes.
install: $(BIN)/python
	rm -f simharness/_engine.cpython-*.so
	$(BIN)/pip install --quiet -e '.[test]'

# Runs the demo experiment end to end: thousands of games, Parquet under results/, a summary.
demo: install
	$(BIN)/simharness run $(CONFIG)

# Every test: Rust unit tests, lints, then the Python suite. The Rust tests run again for baseline
# x86-64 (no SSSE3/POPCNT): the portable forms of the hot loops, which other CPUs run, must pass
# the same tests, so that every machine plays the same games. Tests marked #[ignore] are the long
# invariant runs (10^5 random Hong Kong games): too slow in the debug build, they run in release,
# with the baseline run where there is one (one release build of the tests, not two).
# The Python suite runs on every core (pytest-xdist, work stealing: a few tests take a minute).
test: install lint
	cargo test --quiet --manifest-path engine/Cargo.toml
	if [ "$$(uname -m)" = x86_64 ]; then RUSTFLAGS="-C target-cpu=x86-64" CARGO_TARGET_DIR=engine/target/baseline \
		cargo test --quiet --release --lib --manifest-path engine/Cargo.toml -- --include-ignored; \
	else cargo test --quiet --release --lib --manifest-path engine/Cargo.toml -- --ignored; fi
	$(BIN)/python -m pytest -q -n auto --dist worksteal

lint: install
	cargo fmt --manifest-path engine/Cargo.toml --check
	cargo clippy --quiet --manifest-path engine/Cargo.toml --all-targets --features python -- -D warnings
	$(BIN)/ruff check simharness tests benchmarks build_backend
	$(BIN)/ruff format --check simharness tests benchmarks build_backend
	$(BIN)/python -m mypy

# Throughput of every game and of the reports, against named targets and peers (the `bench` extra).
bench: install
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python benchmarks/run.py
