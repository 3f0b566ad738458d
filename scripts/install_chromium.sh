#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium (package `chromium`) when no Chromium is on the PATH; the
# inspector's HTML test (setree-cli, InspectHtmlBrowserTest) loads the page in it. Idempotent: does nothing
# when `chromium`, `chromium-browser` or `google-chrome` is already installed. Needs root (or sudo) and apt.
# To run the tests without a browser instead, set SETREE_SKIP_BROWSER_TESTS=1.
set -euo pipefail
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then
    echo "$b already installed: $("$b" --version 2>/dev/null || echo "$(command -v "$b")")"
    exit 0
  fi
done
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install_chromium.sh: no apt-get; install Chromium with your package manager" \
       "or set SETREE_SKIP_BROWSER_TESTS=1" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends chromium
chromium --version
