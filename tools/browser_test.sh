#!/usr/bin/env bash
# Tests the page `xq serve` serves in headless Chromium (tools/browser_test.py, with Selenium):
# installs Chromium and chromedriver with apt-get when they are missing, Selenium into a virtual
# environment, builds `xq` if need be, and runs the test. Screenshots go to target/browser/.
# Environment: VENV (target/browser-venv), PYTHON (python3), XQ (a built xq binary to serve with).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-target/browser-venv}
PYTHON=${PYTHON:-python3}
XQ=${XQ:-}

apt_install() {
    if command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
    else
        echo "$* missing and no apt-get to install them with" >&2
        exit 1
    fi
}

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    apt_install chromium chromium-driver
fi
# A font with Chinese characters, so that the Chinese page's screenshots show its words (the board's
# glyphs come with the page); the checks read the text and pass without it.
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
    if ! command -v apt-get >/dev/null 2>&1 || ! (apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei); then
        echo "no Chinese font: the Chinese screenshots show boxes" >&2
    fi
fi
if ! command -v "$PYTHON" >/dev/null 2>&1 || ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    apt_install python3 python3-venv
fi

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import selenium' >/dev/null 2>&1; then
    "$VENV/bin/pip" install --quiet --upgrade pip
    "$VENV/bin/pip" install --quiet "selenium>=4.11,<5"
fi

# Built afresh unless XQ names a binary, so that the page tested is the page in src/serve/
# (cargo has nothing to do when the build is up to date).
if [ -z "$XQ" ]; then
    XQ=${CARGO_TARGET_DIR:-target}/release/xq
    if command -v cargo >/dev/null 2>&1 || [ ! -x "$XQ" ]; then
        cargo build --release
    fi
fi

"$VENV/bin/python" tools/browser_test.py "$XQ"
