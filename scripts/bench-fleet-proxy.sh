#!/usr/bin/env bash
# Fleet load benchmark (`npm run bench:fleet-proxy`, issue 18): the wrk load of scripts/bench-proxy.sh
# (random cards, 50 connections, an enterprise key so nothing is rate limited) in ONE run against
#   nginx    the per-URL export of the snapshot, static (the ceiling: no auth, limits or audit)
#   sqlite   one `catalog serve` host, --workers 1, the embedded SQLite state
#   fleet-1  one host of the fleet, --workers 1, PostgreSQL + Redis state (the counted request runs
#            the limiter script in Redis with appendfsync always; a drainer moves the rows to PG)
#   fleet-3  three such hosts behind nginx as the load balancer (scripts/fleet.sh's configuration)
# and prints requests/s, p50, p99, the CPU per 1k requests of the host(s) and of Redis + PostgreSQL,
# and the ratios against the SQLite host: the cost per request of the shared state. Checks while
# measuring: no non-2xx or socket errors, and for each proxy run the audit rows (SQLite, or
# PostgreSQL once drained) lie between the requests wrk saw answered and those it sent.
#
#   npm run bench:fleet-proxy                                   # builds dist/ first
#   BENCH_CARDS=5000 BENCH_SECONDS=5 bash scripts/bench-fleet-proxy.sh
#
# Settings (environment): BENCH_CARDS (20000), BENCH_SECONDS (15), BENCH_WARMUP (3),
# BENCH_CONNECTIONS (50), BENCH_THREADS (2), BENCH_RANGE (30d), BENCH_REBUILD=1. Redis and
# PostgreSQL are private ones under .bench/fleet-proxy/ (scripts/servers/*.sh), stopped at the end;
# REDIS_APPENDFSYNC=everysec starts Redis without the fsync per write (to see what the fsync costs).
# On a 2-core machine the three hosts, nginx, Redis, PostgreSQL and wrk share the cores: the
# three-host row shows the coordination's cost, not a scale-out (that needs machines).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/bench-preamble.sh"
bench_preamble bench-fleet-proxy

CARDS="${BENCH_CARDS:-20000}"
SECONDS_RUN="${BENCH_SECONDS:-15}"
WARMUP="${BENCH_WARMUP:-3}"
CONNECTIONS="${BENCH_CONNECTIONS:-50}"
THREADS="${BENCH_THREADS:-2}"
RANGE="${BENCH_RANGE:-30d}"
LIMITS="free=60,standard=600,enterprise=999999999"
require_whole_numbers CARDS SECONDS_RUN WARMUP CONNECTIONS THREADS
(( SECONDS_RUN >= 1 && CONNECTIONS >= THREADS && THREADS >= 1 && CARDS >= 1 )) || die "need BENCH_SECONDS >= 1, BENCH_CONNECTIONS >= BENCH_THREADS >= 1"
LOADAVG_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

NGINX="$(find_nginx)"
if [[ -z "$NGINX" ]] || ! command -v wrk >/dev/null 2>&1; then
  reason="$(install_nginx wrk)" || { echo "skipped: nginx/wrk not available ($reason)"; exit 0; }
  NGINX="$(find_nginx)"
fi
require_dist bench:fleet-proxy

WORK="$ROOT/.bench/fleet-proxy"
RUN="$WORK/run"
export REDIS_STATE="$WORK/redis" PG_STATE="$WORK/postgres"
mkdir -p "$WORK"
if [[ "${BENCH_REBUILD:-0}" == 1 ]]; then rm -rf "$WORK/catalog-$CARDS" "$WORK/snapshots-$CARDS" "$WORK/export-$CARDS"; fi
cached_snapshot "$WORK" "$CARDS" 7
rm -rf "$RUN"
mkdir -p "$RUN/nginx/tmp"
IDS_FILE="$RUN/card-ids.txt"
node scripts/lib/card-ids.mjs "$SNAPSHOT_DIR" "$RANGE" > "$IDS_FILE" || die "could not list the cards of $SNAPSHOT_DIR"
ID_COUNT="$(wc -l < "$IDS_FILE")"

# ---------------------------------------------------------------- what we start, stopped by PID on exit
HOST_PIDS=()
_stop_fleet_bench() {
  local rc=$? p
  stop_pid "${NGINX_PID:-}" QUIT 10
  stop_pid "${PROXY_PID:-}" TERM 15
  for p in "${HOST_PIDS[@]}"; do stop_pid "$p" TERM 15; done
  bash scripts/servers/redis.sh stop 2>/dev/null || true
  bash scripts/servers/postgres.sh stop 2>/dev/null || true
  wait 2>/dev/null || true
  exit "$rc"
}
trap _stop_fleet_bench EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- the SQLite host (also makes the export)
STATE="$RUN/state.sqlite"
KEY_FILE="$RUN/sqlite.key"
(umask 077 && mint_key "$STATE" bench enterprise > "$KEY_FILE")
start_proxy "$RUN/sqlite.out" "$RUN/sqlite.err" CATALOG_TIER_LIMITS="$LIMITS" -- --workers 1
SQLITE_PID="$PROXY_PID"
SQLITE_URL="$PROXY_URL"
log "sqlite host (pid $SQLITE_PID) on $SQLITE_URL"
cached_files_export "$WORK" "$CARDS" "$SQLITE_URL" "$KEY_FILE"

# ---------------------------------------------------------------- Redis, PostgreSQL, three fleet hosts
bash scripts/servers/redis.sh up
bash scripts/servers/postgres.sh up
eval "$(bash scripts/servers/redis.sh env)"
eval "$(bash scripts/servers/postgres.sh env)"
export CATALOG_STATE_URL CATALOG_REDIS_URL
REDIS_PID="$(cat "$REDIS_STATE/run/redis.pid")"
PG_PID="$(cat "$PG_STATE/run/postgres.pid")"
# A fresh audit table per run: rows of an earlier run would spoil the count below.
node -e '
  const pg = require("pg"); const c = new pg.Client(process.env.CATALOG_STATE_URL);
  c.connect().then(() => c.query("DROP TABLE IF EXISTS audit_log, api_keys, readiness_probe, schema_migrations")).then(() => c.end());'
redis-cli -u "$CATALOG_REDIS_URL" FLUSHALL > /dev/null

HOST_URLS=()
for n in 1 2 3; do
  : > "$RUN/fleet-$n.out"
  # The URLs reach the host through its environment, not its command line (the password).
  env -i PATH="$PATH" HOME="${HOME:-/root}" CATALOG_TIER_LIMITS="$LIMITS" \
    CATALOG_STATE_URL="$CATALOG_STATE_URL" CATALOG_REDIS_URL="$CATALOG_REDIS_URL" \
    node bin/catalog.js serve --snapshots "$SNAPS" --host 127.0.0.1 --port 0 --workers 1 \
    > "$RUN/fleet-$n.out" 2> "$RUN/fleet-$n.err" &
  HOST_PIDS+=($!)
  HOST_URLS+=("$(wait_for_listening "$!" "$RUN/fleet-$n.out" "$RUN/fleet-$n.err" "fleet host $n")")
  log "fleet host $n (pid ${HOST_PIDS[-1]}) on ${HOST_URLS[-1]}"
done
FLEET_KEY_FILE="$RUN/fleet.key"
(umask 077 && node bin/catalog.js keys mint --tenant bench --tier enterprise --json \
  | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).key))' > "$FLEET_KEY_FILE")
[[ -s "$FLEET_KEY_FILE" ]] || die "could not mint a key in PostgreSQL"

# ---------------------------------------------------------------- nginx: static server + load balancer
LB_PORT="$(node scripts/lib/free-port.mjs)"
{ for u in "${HOST_URLS[@]}"; do echo "    server ${u#http://};"; done; } > "$RUN/nginx/upstreams.conf"
# bench-proxy's static configuration as it is, with the load balancer's server block added to its http block.
{ sed '$d' scripts/bench-proxy/nginx.conf.in
  cat <<LB
  upstream catalog_hosts {
    include @PREFIX@/upstreams.conf;
    keepalive 64;
  }
  server {
    listen 127.0.0.1:$LB_PORT;
    location / {
      proxy_pass http://catalog_hosts;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_next_upstream error timeout;
    }
  }
}
LB
} > "$RUN/nginx.conf.in"
start_nginx "$RUN/nginx.conf.in" "$RUN/nginx" -e "s|@EXPORT@|$EXPORT_DIR|g" -e "s|@SNAPSHOT_ID@|$(basename "$EXPORT_DIR")|g"
LB_URL="http://127.0.0.1:$LB_PORT"
log "nginx (pid $NGINX_PID): static on $NGINX_URL, load balancer on $LB_URL"

# ---------------------------------------------------------------- the runs
sqlite_rows() { node scripts/bench-proxy/audit-count.mjs "$STATE"; }
# PostgreSQL's rows once the drainers are done: the count stops moving for a second.
fleet_rows() {
  local last=-1 now i
  for ((i = 0; i < 120; i++)); do
    now="$(node scripts/bench-fleet-proxy/audit-count.mjs | cut -d' ' -f1)"
    [[ "$now" == "$last" ]] && { echo "$now"; return 0; }
    last="$now"
    sleep 1
  done
  echo "$now"
}

FAILED=0
declare -A CPU_HOST CPU_STATE AUDIT
# measure <name> <url> <key file> <host pids...>: warm-up, then the measured run; CPU of the hosts
# and of Redis + PostgreSQL (its backends are the postmaster's children) over the measured run.
measure() {
  local name="$1" url="$2" key="$3" before after sb sa
  shift 3
  (( WARMUP > 0 )) && run_wrk "$name-warmup" "$url" "$WARMUP" "$key"
  before="$(cpu_seconds "$@")"; sb="$(cpu_seconds "$REDIS_PID" "$PG_PID")"
  log "$name: ${SECONDS_RUN}s at $CONNECTIONS connections"
  run_wrk "$name" "$url" "$SECONDS_RUN" "$key"
  after="$(cpu_seconds "$@")"; sa="$(cpu_seconds "$REDIS_PID" "$PG_PID")"
  CPU_HOST[$name]="$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f", a - b }')"
  CPU_STATE[$name]="$(awk -v a="$sa" -v b="$sb" 'BEGIN { printf "%.2f", a - b }')"
  if [[ "$(wrk_errors "$name")" != 0 ]] || { (( WARMUP > 0 )) && [[ "$(wrk_errors "$name-warmup")" != 0 ]]; }; then
    FAILED=1
    log "$name: errors: $(sed -n 's/^BENCH_RESULT //p' "$RUN/$name.wrk")"
  fi
}
# audit_check <name> <rows before> <rows after>: rows between answered (warm-up + run) and sent.
audit_check() {
  local name="$1" rows=$(( $3 - $2 )) answered sent
  answered=$(( $(field "$name" requests) + (WARMUP > 0 ? $(field "$name-warmup" requests) : 0) ))
  sent=$(( $(field "$name" sent) + (WARMUP > 0 ? $(field "$name-warmup" sent) : 0) ))
  if (( rows >= answered && rows <= sent )); then AUDIT[$name]="ok ($rows rows, $answered answered, $sent sent)"
  else AUDIT[$name]="MISMATCH ($rows rows, $answered answered, $sent sent)"; FAILED=1; fi
}

cat "$SNAPSHOT_DIR/objects.sqlite" "$SNAPS/packs/"*.pack > /dev/null
sed "s|.*|$EXPORT_DIR/v1/cards/&/$RANGE.json.gz|" "$IDS_FILE" | xargs -d '\n' cat > /dev/null
measure nginx "$NGINX_URL" "" "$NGINX_PID"
r0="$(sqlite_rows)"
measure sqlite "$SQLITE_URL" "$KEY_FILE" "$SQLITE_PID"
sleep 1
audit_check sqlite "$r0" "$(sqlite_rows)"
r0="$(fleet_rows)"
measure fleet-1 "${HOST_URLS[0]}" "$FLEET_KEY_FILE" "${HOST_PIDS[0]}"
r1="$(fleet_rows)"
audit_check fleet-1 "$r0" "$r1"
measure fleet-3 "$LB_URL" "$FLEET_KEY_FILE" "${HOST_PIDS[@]}" "$NGINX_PID"
audit_check fleet-3 "$r1" "$(fleet_rows)"

# ---------------------------------------------------------------- the result
cpu_per_k() { awk -v c="$1" -v n="$(field "$2" requests)" 'BEGIN { if (n > 0) printf "%.2f", c * 1000 * 1000 / n; else print "n/a" }'; }
SQLITE_RPS="$(rps sqlite)"
{
  echo "Fleet proxy throughput, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- command: \`$COMMAND_LINE\` (BENCH_CARDS=$CARDS BENCH_SECONDS=$SECONDS_RUN BENCH_WARMUP=$WARMUP BENCH_CONNECTIONS=$CONNECTIONS BENCH_THREADS=$THREADS)"
  echo "- machine: $(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), node $(node --version), $("$NGINX" -v 2>&1 | sed 's/^nginx version: //'), $(redis-server --version | awk '{ print $1, $3 }'), PostgreSQL $("/usr/lib/postgresql/15/bin/postgres" --version | awk '{ print $3 }'); load average before / after: $LOADAVG_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- state servers: Redis with appendfsync $(redis-cli -u "$CATALOG_REDIS_URL" CONFIG GET appendfsync | tail -n 1) (REDIS_APPENDFSYNC), PostgreSQL with its defaults (fsync on), both private ones under .bench/fleet-proxy/"
  echo "- load: wrk -t$THREADS -c$CONNECTIONS -d${SECONDS_RUN}s after a ${WARMUP}s warm-up, GET /v1/cards/<random id>?range=$RANGE (gzip) over $ID_COUNT cards of a $CARDS-card packed snapshot; the proxies with an enterprise key (not rate limited); every host \`--workers 1\`"
  echo
  echo "| target | requests/s | p50 ms | p99 ms | of sqlite host | host CPU per 1k req | Redis+PG CPU per 1k req |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for t in nginx sqlite fleet-1 fleet-3; do
    echo "| $t | $(rps "$t") | $(ms "$(field "$t" p50_us)") | $(ms "$(field "$t" p99_us)") | $(ratio "$(rps "$t")" "$SQLITE_RPS") | $(cpu_per_k "${CPU_HOST[$t]}" "$t") ms | $(cpu_per_k "${CPU_STATE[$t]}" "$t") ms |"
  done
  echo
  echo "- audit rows against answered requests: sqlite ${AUDIT[sqlite]}; fleet-1 ${AUDIT[fleet-1]}; fleet-3 ${AUDIT[fleet-3]}"
  echo "- host CPU: the proxy process(es) (fleet-3: the three hosts and the load balancer); Redis+PG: redis-server and the postmaster with its backends (nginx and sqlite rows: idle servers)"
} | tee "$WORK/last-result.md"

(( FAILED == 0 )) || die "correctness check failed (errors, or audit rows out of range); wrk output in $RUN/*.wrk"
