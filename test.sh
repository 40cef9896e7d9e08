#!/usr/bin/env bash
# Runs every test of the project, as CI does. The web console's browser tests
# drive a real Chromium: when none is installed and this runs as root with
# apt-get (as CI does), it installs Debian's chromium first; elsewhere those
# tests skip and say how to install it (with CI=true a missing browser fails).
# The tests of the page's arithmetic (chart.js, format.js) run it under
# Node.js: the same way, it installs Debian's nodejs when absent. The
# game-day store's tests need PostgreSQL: it installs Debian's postgresql
# when absent, then starts a throwaway server for them. Each phase says what
# it does before it starts; the end is go test's own summary. promtool,
# which checks the metrics oncall exports, comes the same way (Debian's
# prometheus package).
set -euo pipefail
cd "$(dirname "$0")"
began=$SECONDS
say() { echo "test.sh [$(elapsed)]: $*"; }
elapsed() { local s=$((SECONDS - began)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then say "apt-get update"; apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

have_chromium() {
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
    command -v google-chrome >/dev/null 2>&1
}

if ! have_chromium && can_install; then
  say "installing chromium for the browser tests (apt-get)"
  apt_install chromium
fi

if ! command -v node >/dev/null 2>&1 && can_install; then
  say "installing nodejs for the tests of chart.js and format.js (apt-get)"
  apt_install nodejs
fi

# promtool (in Debian's prometheus package) checks what oncall exports:
# the scrape, the OpenMetrics blocks, the alerting rules' state machine.
if ! command -v promtool >/dev/null 2>&1 && can_install; then
  say "installing prometheus for promtool, which checks the metrics oncall exports (apt-get)"
  apt_install --no-install-recommends prometheus
fi

# Debian keeps PostgreSQL's programs in /usr/lib/postgresql/VERSION/bin.
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "${ONCALL_TEST_POSTGRES:-}" ] && [ -z "$(pg_bin)" ] && can_install; then
  say "installing postgresql for the game-day store's tests (apt-get)"
  apt_install postgresql
fi

# start_test_postgres BIN starts a throwaway server: a cluster in a
# temporary folder, on a free port of 127.0.0.1 (and a socket in that
# folder), stopped and removed when this script ends. PostgreSQL refuses to
# run as root, so as root it runs as the postgres user the package made.
# fsync is off: the tests kill oncall, never this server.
pg_as=()
pg() { (cd "$pgdir" && "${pg_as[@]}" "$@"); }
stop_test_postgres() {
  pg "$pg_binary/pg_ctl" -D "$pgdir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$pgdir"
}
start_test_postgres() {
  pg_binary=$1
  if [ "$(id -u)" = 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
      say "no postgres user to run PostgreSQL as: its tests will skip"; return 0
    fi
    pg_as=(runuser -u postgres --)
  fi
  pgdir=$(mktemp -d "${TMPDIR:-/tmp}/oncall-pg.XXXXXX")
  if [ "$(id -u)" = 0 ]; then chown postgres "$pgdir"; fi
  trap stop_test_postgres EXIT
  pg "$pg_binary/initdb" -D "$pgdir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$pgdir/initdb.log" 2>&1 ||
    { cat "$pgdir/initdb.log"; exit 1; }
  local port tries
  for tries in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 40000))
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi # taken
    if pg "$pg_binary/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w -t 60 \
      -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$pgdir -c fsync=off -c max_connections=300" \
      start >/dev/null; then
      export ONCALL_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
      say "PostgreSQL $("$pg_binary/postgres" --version | awk '{print $3}') for the tests on 127.0.0.1:$port"
      return 0
    fi
  done
  cat "$pgdir/server.log"; say "PostgreSQL did not start"; exit 1
}
if [ -z "${ONCALL_TEST_POSTGRES:-}" ] && [ -n "$(pg_bin)" ]; then
  say "starting PostgreSQL for the game-day store's tests"
  start_test_postgres "$(pg_bin)"
fi

say "gofmt -l"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  say "gofmt would change:"; echo "$unformatted"; exit 1
fi
say "go vet ./... (the first run downloads the modules and compiles every package: minutes)"
go vet ./...
say "compiling the tests"
if ! built=$(go test -count=1 -run '^$' ./... 2>&1); then echo "$built"; exit 1; fi
# -timeout is a ceiling for a test that hangs, far above what the slowest
# package takes (the browser tests, a few minutes), so that a busy machine
# does not cross it.
packages=$(go list ./... | wc -l)
say "go test -count=1 ./... ($packages packages; each prints its line as it ends, the browser tests after a few minutes)"
go test -count=1 -timeout 40m ./...
