#!/usr/bin/env bash
# Builds the Python module `xq` (python/, with maturin) into a virtual environment and runs its
# tests with pytest. pyffish is installed too when it can be, for the differential test; without
# it that test is skipped. Environment: VENV (target/python-venv), PYTHON (python3).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-target/python-venv}
PYTHON=${PYTHON:-python3}
"$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet "maturin>=1.5,<2" pytest
"$VENV/bin/pip" install --quiet pyffish || echo "pyffish could not be installed: its differential test is skipped"
VIRTUAL_ENV="$PWD/$VENV" "$VENV/bin/maturin" develop --release --quiet -m python/Cargo.toml
"$VENV/bin/python" -c "import xq; print('xq', xq.__version__)"
"$VENV/bin/pytest" -q python/tests
