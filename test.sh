#!/usr/bin/env bash
# Runs every test of the project, as CI does. The web console's browser tests
# drive a real Chromium: when none is installed and this runs as root with
# apt-get (as CI does), it installs Debian's chromium first; elsewhere those
# tests skip and say how to install it (with CI=true a missing browser fails).
set -euo pipefail
cd "$(dirname "$0")"

have_chromium() {
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
    command -v google-chrome >/dev/null 2>&1
}

if ! have_chromium && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "test.sh: installing chromium for the browser tests (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "test.sh: gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go test -count=1 ./...
