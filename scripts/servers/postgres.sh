#!/usr/bin/env bash
# A real PostgreSQL 15 on loopback for the proxy fleet's store of record (keys, audit rows): one
# cluster under a state folder of its own, SCRAM passwords, a role and a database for the tests.
#
#   bash scripts/servers/postgres.sh install   # Debian's postgresql-15 when absent
#   bash scripts/servers/postgres.sh start     # initdb once, a free loopback port, waits until it accepts logins
#   bash scripts/servers/postgres.sh up        # install, then start (what .ci/run does)
#   bash scripts/servers/postgres.sh env       # CATALOG_STATE_URL of the running server (eval-able)
#   bash scripts/servers/postgres.sh status    # exit 0 when the recorded postmaster runs
#   bash scripts/servers/postgres.sh stop      # fast shutdown (INT, then KILL) of the recorded PID, nothing else
#
# Settings (environment): PG_STATE (the state folder, default .servers/postgres of the checkout).
# The role `catalog` (password in $PG_STATE/run/password, made at initdb) owns the database
# `catalog` and may create databases (tests make their own). initdb and the server refuse to run as
# root: both run as the `postgres` user, which is why the state folder's parents are made enterable.
# The postmaster is started directly (setpriv execs it, so the PID recorded at once is the server's
# own, not a pg_ctl or runuser in front of it); `stop` signals it only while /proc/<pid>/cmdline
# still names this state folder.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NAME=postgres
STATE="${PG_STATE:-$ROOT/.servers/postgres}"
RUN="$STATE/run"
LOGS="$STATE/log"
DATA="$STATE/data"
PACKAGES=(postgresql-15)
BIN=/usr/lib/postgresql/15/bin
DB=catalog
ROLE=catalog
# shellcheck source=lib.sh
source "$ROOT/scripts/servers/lib.sh"

port() { cat "$RUN/port" 2>/dev/null || true; }
ours() {
  local pid
  pid="$(pid_of postgres)"
  [[ -n "$pid" ]] && cmdline_of "$pid" | grep -qF -- "-D $DATA"
}
password() { cat "$RUN/password"; }
where() { echo "127.0.0.1:$(port)"; }
url() { echo "postgres://$ROLE:$(password)@127.0.0.1:$(port)/$DB"; }
as_postgres() { runuser -u postgres -- "$@"; }
answers() { "$BIN/pg_isready" -q -h 127.0.0.1 -p "$(port)" -d "$DB" -U "$ROLE"; }
# psql as the superuser over the state folder's socket (no password: peer of the postgres user).
admin_sql() { as_postgres "$BIN/psql" -q -v ON_ERROR_STOP=1 -h "$RUN" -p "$(port)" -d postgres -c "$1" >/dev/null; }

cmd_install() {
  if [[ -x "$BIN/postgres" ]]; then log "installed already ($BIN)"; return 0; fi
  apt_install
}

# The postgres user must be able to walk down to the state folder (mkdtemp folders are 0700): each
# folder on the way that it cannot enter gets o+x (enter, not list), and the change is said.
make_enterable() {
  local dir="$STATE"
  while [[ "$dir" != / ]]; do
    if ! as_postgres test -x "$dir"; then chmod o+x "$dir" && log "made $dir enterable by the postgres user (o+x)"; fi
    dir="$(dirname "$dir")"
  done
}

init_cluster() {
  [[ -s "$DATA/PG_VERSION" ]] && return 0
  rm -rf "$DATA"
  mkdir -p "$DATA"
  chown postgres:postgres "$DATA" "$RUN"
  chmod 0700 "$DATA"
  head -c 18 /dev/urandom | base64 | tr '+/' 'xy' > "$RUN/password"
  chmod 0644 "$RUN/password"
  # Local socket: peer (the superuser, for the setup below); TCP: SCRAM only.
  as_postgres "$BIN/initdb" -D "$DATA" -U postgres --auth-local=peer --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >"$LOGS/initdb.log" 2>&1 \
    || { tail -n 20 "$LOGS/initdb.log" >&2; die "initdb failed (log: $LOGS/initdb.log)"; }
  touch "$RUN/needs-setup"
}

cmd_start() {
  [[ -x "$BIN/postgres" ]] || die "PostgreSQL 15 is not installed: run 'bash scripts/servers/postgres.sh install' (as root, Debian)"
  if ours && answers; then log "running already at $(url | sed 's/:[^:@]*@/:***@/')"; return 0; fi
  cmd_stop 2>/dev/null
  mkdir -p "$RUN" "$LOGS"
  make_enterable
  init_cluster
  chown postgres:postgres "$RUN" "$LOGS"
  local port
  port="$(free_port "$(port)")"
  echo "$port" > "$RUN/port"
  # max_connections: several proxy processes (and the tests' child processes) each hold a pool.
  launch postgres setpriv --reuid=postgres --regid=postgres --init-groups -- "$BIN/postgres" -D "$DATA" \
    -c listen_addresses=127.0.0.1 -p "$port" -c unix_socket_directories="$RUN" \
    -c max_connections=300 -c password_encryption=scram-sha-256
  local i
  for ((i = 0; i < 300; i++)); do
    alive postgres || { tail -n 20 "$LOGS/postgres.log" >&2; cmd_stop; die "postgres exited while starting (log: $LOGS/postgres.log)"; }
    if as_postgres "$BIN/pg_isready" -q -h "$RUN" -p "$port"; then break; fi
    sleep 0.1
  done
  if [[ -e "$RUN/needs-setup" ]]; then
    admin_sql "CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$(password)'" \
      && admin_sql "CREATE DATABASE $DB OWNER $ROLE" \
      || { cmd_stop; die "could not create the role and database (log: $LOGS/postgres.log)"; }
    rm -f "$RUN/needs-setup"
  fi
  for ((i = 0; i < 100; i++)); do
    if answers; then log "started at 127.0.0.1:$port, database $DB (state $STATE)"; return 0; fi
    sleep 0.1
  done
  cmd_stop
  die "PostgreSQL did not accept connections within 40 s (log: $LOGS/postgres.log)"
}

cmd_stop() {
  # INT is PostgreSQL's fast shutdown: open sessions are ended (TERM would wait for every client).
  stop_recorded postgres INT
}

cmd_env() {
  ours || die "not running: start it with 'bash scripts/servers/postgres.sh start'"
  echo "export CATALOG_STATE_URL=$(url)"
}

dispatch "$@"
