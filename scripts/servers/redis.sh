#!/usr/bin/env bash
# A real Redis on loopback for the proxy fleet's state (rate-limit counters, the audit stream, the
# revocation channel): Debian's redis-server, one process, everything under a state folder of its own.
#
#   bash scripts/servers/redis.sh install   # Debian's redis-server; apt-get update only when missing
#   bash scripts/servers/redis.sh start     # a free loopback port, then waits until it answers PING
#   bash scripts/servers/redis.sh up        # install, then start (what .ci/run does)
#   bash scripts/servers/redis.sh env       # CATALOG_REDIS_URL of the running server (eval-able)
#   bash scripts/servers/redis.sh status    # exit 0 when the recorded process runs
#   bash scripts/servers/redis.sh stop      # TERM (then KILL) the recorded PID, nothing else
#
# Settings (environment): REDIS_STATE (the state folder, default .servers/redis of the checkout);
# REDIS_APPENDFSYNC (always | everysec, default always): the append-only file is always on, and
# `always` fsyncs every write before Redis answers it, which is what makes an audit entry durable
# before the proxy's answer leaves (docs/benchmarks.md measures both).
# The PID is written to $REDIS_STATE/run/redis.pid the moment the process exists; `stop` signals it
# only while /proc/<pid>/cmdline still names this state folder's config or the port it gave
# (redis-server soon rewrites its command line to "redis-server 127.0.0.1:<port>").
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NAME=redis
STATE="${REDIS_STATE:-$ROOT/.servers/redis}"
RUN="$STATE/run"
LOGS="$STATE/log"
DATA="$STATE/data"
PACKAGES=(redis-server)
FSYNC="${REDIS_APPENDFSYNC:-always}"
# shellcheck source=lib.sh
source "$ROOT/scripts/servers/lib.sh"

port() { cat "$RUN/port" 2>/dev/null || true; }
ours() {
  local pid
  pid="$(pid_of redis)"
  # Before Redis renames itself its command line is the one launch gave it (the config's path).
  [[ -n "$pid" && -n "$(port)" ]] && cmdline_of "$pid" | grep -qF -e "127.0.0.1:$(port)" -e "$STATE/redis.conf"
}
where() { echo "$(url)"; }
url() { echo "redis://127.0.0.1:$(port)"; }
answers() { [[ "$(redis-cli -h 127.0.0.1 -p "$(port)" PING 2>/dev/null)" == PONG ]]; }

cmd_install() {
  if packages_installed; then log "installed already (${PACKAGES[*]})"; return 0; fi
  apt_install
}

cmd_start() {
  packages_installed || die "Redis is not installed: run 'bash scripts/servers/redis.sh install' (as root, Debian)"
  [[ "$FSYNC" == always || "$FSYNC" == everysec ]] || die "REDIS_APPENDFSYNC must be always or everysec, not $FSYNC"
  if ours && answers; then log "running already at $(url)"; return 0; fi
  cmd_stop 2>/dev/null
  mkdir -p "$RUN" "$LOGS" "$DATA"
  local port
  port="$(free_port "$(port)")"
  echo "$port" > "$RUN/port"
  # No RDB snapshots (the append-only file is the persistence), no daemonizing (the PID below is the
  # server's own), loopback only; noeviction (Redis's default, said here on purpose): an evicted
  # counter would admit requests over the limit and an evicted stream would lose audit rows, so a
  # full Redis must refuse writes (the proxy then answers 503) instead.
  cat > "$STATE/redis.conf" <<CONF
bind 127.0.0.1
port $port
protected-mode yes
daemonize no
dir $DATA
save ""
appendonly yes
appendfsync $FSYNC
maxmemory-policy noeviction
logfile ""
CONF
  launch redis redis-server "$STATE/redis.conf"
  local i
  for ((i = 0; i < 100; i++)); do
    alive redis || { tail -n 20 "$LOGS/redis.log" >&2; cmd_stop; die "redis-server exited while starting (log: $LOGS/redis.log)"; }
    if answers; then log "started at $(url) (appendfsync $FSYNC, state $STATE)"; return 0; fi
    sleep 0.05
  done
  cmd_stop
  die "Redis did not answer within 5 s (log: $LOGS/redis.log)"
}

cmd_stop() {
  # TERM: Redis fsyncs the append-only file and exits.
  stop_recorded redis TERM
}

cmd_env() {
  ours || die "not running: start it with 'bash scripts/servers/redis.sh start'"
  echo "export CATALOG_REDIS_URL=$(url)"
}

dispatch "$@"
