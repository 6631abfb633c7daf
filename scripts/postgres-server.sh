#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests of @loop/postgres (and for trying it out).
#
#   scripts/postgres-server.sh start     initdb if needed, start on 127.0.0.1, print the URL
#   scripts/postgres-server.sh url       print the URL of the running server
#   scripts/postgres-server.sh restart   stop and start again (same port, same data)
#   scripts/postgres-server.sh stop      stop it (the data stays for the next start)
#   scripts/postgres-server.sh destroy   stop it and delete its folder
#
# `start` and `url` print one line, `export LOOP_TEST_POSTGRES_URL=postgres://…`, so that
#   eval "$(scripts/postgres-server.sh start)"
# sets the variable the tests read. Everything else goes to stderr.
#
# The server lives in $LOOP_POSTGRES_DIR (default: $TMPDIR/loop-postgres-<uid>): data/, the
# log, and the port, a free local port (never 5432) chosen at the first start and kept. It
# listens on 127.0.0.1 only, trusts local connections (user `loop`, no password) and runs
# with fsync off: it is for tests, not for data anyone keeps. initdb refuses to run as root,
# so as root the server runs as the `postgres` user (runuser). PostgreSQL's binaries are
# looked up on PATH, then in /usr/lib/postgresql/<version>/bin (the newest).
set -euo pipefail

command_name="${1:-}"
dir="${LOOP_POSTGRES_DIR:-${TMPDIR:-/tmp}/loop-postgres-$(id -u)}"
data="$dir/data"
log="$dir/server.log"
port_file="$dir/port"
user="loop"

say() { printf 'postgres-server: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }

# The folder holding initdb and pg_ctl: PATH first, then the newest Debian install.
find_bin_dir() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return
  fi
  local candidate
  candidate="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [ -n "$candidate" ] && [ -x "$candidate/initdb" ]; then
    printf '%s\n' "$candidate"
    return
  fi
  fail "PostgreSQL's initdb was not found (on PATH or in /usr/lib/postgresql/*/bin): install it, e.g. apt-get install postgresql"
}

# Runs a command as the server's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# A free TCP port on 127.0.0.1, as the kernel hands one out (never 5432).
free_port() {
  node -e '
    const server = require("node:net").createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => process.stdout.write(String(port)));
    });'
}

url() {
  printf 'postgres://%s@127.0.0.1:%s/postgres\n' "$user" "$(cat "$port_file")"
}

print_export() {
  printf 'export LOOP_TEST_POSTGRES_URL=%s\n' "$(url)"
}

is_running() {
  [ -f "$data/PG_VERSION" ] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1
}

prepare_folder() {
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || fail "running as root needs the \`postgres\` user (created by Debian's postgresql package)"
    chown postgres "$dir"
  fi
  chmod 700 "$dir"
}

initialise() {
  say "initdb into $data"
  as_owner "$bin/initdb" -D "$data" -U "$user" -A trust -E UTF8 --locale=C.UTF-8 >/dev/null 2>&1 ||
    as_owner "$bin/initdb" -D "$data" -U "$user" -A trust -E UTF8 --no-locale >/dev/null
  local port
  port="$(free_port)"
  [ "$port" != "5432" ] || port="$(free_port)"
  printf '%s\n' "$port" >"$port_file"
  as_owner tee -a "$data/postgresql.conf" >/dev/null <<CONF

# Written by scripts/postgres-server.sh: a throwaway server for tests.
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
}

start() {
  prepare_folder
  [ -f "$data/PG_VERSION" ] || initialise
  if is_running; then
    say "already running: $(url)"
  else
    say "starting on 127.0.0.1:$(cat "$port_file") (log: $log)"
    as_owner "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start >/dev/null ||
      fail "the server did not start; its log, $log, says why"
  fi
  print_export
}

stop() {
  if is_running; then
    say "stopping"
    as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null
  fi
}

bin="$(find_bin_dir)"
case "$command_name" in
  start) start ;;
  url)
    is_running || fail "not running: start it with scripts/postgres-server.sh start"
    print_export
    ;;
  restart)
    stop
    start
    ;;
  stop) stop ;;
  destroy)
    stop
    rm -rf "$dir"
    say "removed $dir"
    ;;
  *)
    fail "usage: scripts/postgres-server.sh start|url|restart|stop|destroy (folder: \$LOOP_POSTGRES_DIR, default $dir)"
    ;;
esac
