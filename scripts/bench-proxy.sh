#!/usr/bin/env bash
# Proxy load benchmark (`npm run bench:proxy`): the same wrk load, random cards at 50 connections,
# against nginx serving the per-URL files of the snapshot with gzip_static and the origin's ETags (the
# ceiling: no auth, no limits, no audit) and against `catalog serve --workers 2` with a bearer key
# (gate, rate-limit upsert, audit row committed per request; objects read from the packed snapshot by
# index lookup and pread), with plain node:http serving nginx's files in between (bare-node.mjs: what
# the runtime itself costs). The snapshot is packed (what `catalog compile` writes); the files nginx
# serves are its `catalog mirror --layout files` export, made from the proxy this script starts.
# Prints requests/s, p50, p99, the proxy/nginx ratio and the machine, and checks while measuring: the
# same gzip bytes and ETag from nginx and the proxy, no non-2xx answers on any side, and one audit row
# per proxied request.
#
#   npm run bench:proxy                              # builds dist/ first, then runs this script
#   BENCH_CARDS=20000 BENCH_SECONDS=10 bash scripts/bench-proxy.sh
#
# Settings (environment): BENCH_CARDS (100000), BENCH_SECONDS (20), BENCH_WARMUP (3),
# BENCH_CONNECTIONS (50), BENCH_THREADS (2), BENCH_WORKERS (2, proxy workers), BENCH_IDS (0 = every
# card of the snapshot, else a random sample of that many ids), BENCH_RANGE (30d), BENCH_REBUILD=1
# (regenerate, recompile and export again the cached catalog under .bench/proxy/).
#
# Needs nginx and wrk: installed from Debian's packages when missing; when that is not possible the
# script prints "skipped: ..." and exits 0. Exit 1 when a correctness check fails.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/bench-preamble.sh"
bench_preamble bench-proxy
HERE="$ROOT/scripts/bench-proxy"

CARDS="${BENCH_CARDS:-100000}"
SECONDS_RUN="${BENCH_SECONDS:-20}"
WARMUP="${BENCH_WARMUP:-3}"
CONNECTIONS="${BENCH_CONNECTIONS:-50}"
THREADS="${BENCH_THREADS:-2}"
WORKERS="${BENCH_WORKERS:-2}"
IDS_SAMPLE="${BENCH_IDS:-0}"
RANGE="${BENCH_RANGE:-30d}"
# CATALOG_TIER_LIMITS takes at most 9 digits; 999,999,999 a minute is "unlimited" for a 20 s run.
ENTERPRISE_LIMIT=999999999

require_whole_numbers CARDS SECONDS_RUN WARMUP CONNECTIONS THREADS WORKERS IDS_SAMPLE
(( SECONDS_RUN >= 1 && CONNECTIONS >= THREADS && THREADS >= 1 && WORKERS >= 1 && CARDS >= 1 )) \
  || die "need BENCH_SECONDS >= 1, BENCH_CONNECTIONS >= BENCH_THREADS >= 1, BENCH_WORKERS >= 1, BENCH_CARDS >= 1"

# The machine may be shared: the load average before the run goes into the result, so a number taken
# while something else was busy can be recognised.
LOADAVG_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------- 1. nginx and wrk
NGINX="$(find_nginx)"
if [[ -z "$NGINX" ]] || ! command -v wrk >/dev/null 2>&1; then
  log "installing nginx and wrk from Debian packages"
  if ! reason="$(install_nginx wrk)"; then
    echo "skipped: nginx/wrk not available ($reason)"
    exit 0
  fi
  NGINX="$(find_nginx)"
  if [[ -z "$NGINX" ]] || ! command -v wrk >/dev/null 2>&1; then
    echo "skipped: nginx/wrk not available (installed packages but nginx or wrk is not on PATH)"
    exit 0
  fi
fi
if ! "$NGINX" -V 2>&1 | grep -q -- '--with-http_gzip_static_module'; then
  echo "skipped: nginx/wrk not available ($NGINX is built without the gzip_static module)"
  exit 0
fi
require_dist bench:proxy

# ---------------------------------------------------------------- 2. catalog and snapshot (cached)
WORK="$ROOT/.bench/proxy"
RUN="$WORK/run"
mkdir -p "$WORK"
if [[ "${BENCH_REBUILD:-0}" == 1 ]]; then rm -rf "$WORK/catalog-$CARDS" "$WORK/snapshots-$CARDS" "$WORK/export-$CARDS"; fi
# The proxy serves SNAPS (the packed snapshot `current` points to, SNAPSHOT_DIR); nginx serves the
# per-URL export of the same snapshot (step 4).
cached_snapshot "$WORK" "$CARDS" 7
[[ -f "$SNAPSHOT_DIR/objects.sqlite" ]] || die "$SNAPSHOT_DIR/objects.sqlite is missing: is the snapshot complete? (BENCH_REBUILD=1 starts over)"

rm -rf "$RUN"
mkdir -p "$RUN/nginx/tmp"
IDS_FILE="$RUN/card-ids.txt"
# Ids come from the snapshot's object index (every card with a $RANGE document), so every request
# names a real document.
node scripts/lib/card-ids.mjs "$SNAPSHOT_DIR" "$RANGE" > "$RUN/all-card-ids.txt" || die "could not list the cards of $SNAPSHOT_DIR"
if (( IDS_SAMPLE > 0 )); then
  shuf -n "$IDS_SAMPLE" "$RUN/all-card-ids.txt" > "$IDS_FILE"
else
  mv "$RUN/all-card-ids.txt" "$IDS_FILE"
fi
ID_COUNT="$(wc -l < "$IDS_FILE")"
(( ID_COUNT > 0 )) || die "no v1/cards/<id>/$RANGE.json.gz key in $SNAPSHOT_DIR/objects.sqlite"
SAMPLE_ID="$(head -n 1 "$IDS_FILE")"
log "snapshot $(basename "$SNAPSHOT_DIR"): $ID_COUNT card ids in the load"

# ---------------------------------------------------------------- cleanup: stop what we started, by PID
stop_started_on_exit

# ---------------------------------------------------------------- 3. the proxy, fresh state, enterprise key
STATE="$RUN/state.sqlite"
KEY_FILE="$RUN/bench.key"
(umask 077 && { mint_key "$STATE" bench enterprise; echo; } > "$KEY_FILE")
[[ -s "$KEY_FILE" ]] || die "could not mint a key"

# The enterprise tier set so high that the load is never rate limited.
start_proxy "$RUN/proxy.out" "$RUN/proxy.err" CATALOG_TIER_LIMITS="free=60,standard=600,enterprise=$ENTERPRISE_LIMIT" \
  -- --workers "$WORKERS"
log "proxy (primary pid $PROXY_PID, $WORKERS workers) on $PROXY_URL; enterprise limit $ENTERPRISE_LIMIT/min (not rate limited)"

# ---------------------------------------------------------------- 4. the per-URL export, and nginx serving it
# Made once per snapshot through the proxy just started, with the same key (cached under $WORK).
cached_files_export "$WORK" "$CARDS" "$PROXY_URL" "$KEY_FILE"
[[ -f "$EXPORT_DIR/v1/cards/$SAMPLE_ID/$RANGE.json.gz" ]] || die "the export $EXPORT_DIR has no v1/cards/$SAMPLE_ID/$RANGE.json.gz"
NGINX_URL=""
start_nginx "$HERE/nginx.conf.in" "$RUN/nginx" -e "s|@EXPORT@|$EXPORT_DIR|g" -e "s|@SNAPSHOT_ID@|$(basename "$EXPORT_DIR")|g"
log "nginx (pid $NGINX_PID, 2 workers) on $NGINX_URL, serving $EXPORT_DIR"

# ---------------------------------------------------------------- same bytes and ETag from both?
# header <file> <name>: the value of a response header in a curl -D file.
header() { tr -d '\r' < "$1" | sed -n "s/^$2: *//Ip" | head -n 1; }
check_same_document() {
  local url="/v1/cards/$SAMPLE_ID?range=$RANGE" n p nh ph ne pe
  nh="$(curl -s -D "$RUN/nginx.headers" -o "$RUN/nginx.body" -w '%{http_code}' -H 'Accept-Encoding: gzip' "$NGINX_URL$url")"
  ph="$(curl -s -D "$RUN/proxy.headers" -o "$RUN/proxy.body" -w '%{http_code}' -H 'Accept-Encoding: gzip' \
    -H "Authorization: Bearer $(cat "$KEY_FILE")" "$PROXY_URL$url")"
  [[ "$nh" == 200 ]] || die "nginx answered $nh to GET $url (see $RUN/nginx.headers)"
  [[ "$ph" == 200 ]] || die "the proxy answered $ph to GET $url (see $RUN/proxy.headers, $RUN/proxy.body)"
  grep -qi '^content-encoding: *gzip' "$RUN/nginx.headers" || die "nginx did not send Content-Encoding: gzip"
  grep -qi '^content-encoding: *gzip' "$RUN/proxy.headers" || die "the proxy did not send Content-Encoding: gzip"
  n="$(gzip -dc < "$RUN/nginx.body" | sha256sum | cut -c1-64)"
  p="$(gzip -dc < "$RUN/proxy.body" | sha256sum | cut -c1-64)"
  [[ "$n" == "$p" ]] || die "nginx and the proxy sent different documents for $url"
  # The export is the stored objects as they are, so the gzip bytes must be identical too, and both
  # must label them with the object's SHA-256 (the proxy from the index, nginx from etags.map).
  cmp -s "$RUN/nginx.body" "$RUN/proxy.body" || die "nginx and the proxy sent the same document for $url in different gzip bytes"
  ne="$(header "$RUN/nginx.headers" etag)"
  pe="$(header "$RUN/proxy.headers" etag)"
  [[ -n "$pe" && "$ne" == "$pe" ]] || die "ETags differ for $url: nginx '$ne', the proxy '$pe'"
  [[ "$pe" == "\"$(sha256sum < "$RUN/proxy.body" | cut -c1-64)\"" ]] || die "the ETag $pe of $url is not the SHA-256 of its bytes"
  SAMPLE_ETAG="$pe"
  log "GET $url: both 200, identical gzip bytes ($(stat -c %s "$RUN/proxy.body") B), same ETag $pe"
}
SAMPLE_ETAG=""
check_same_document

# ---------------------------------------------------------------- 5. the same wrk load against both
audit_rows() {
  if command -v sqlite3 >/dev/null 2>&1; then
    sqlite3 -readonly "$STATE" 'SELECT count(*) FROM audit_log;'
  else
    node "$HERE/audit-count.mjs" "$STATE"
  fi
}

# Reads every document the load asks for, so both servers start from the page cache. This VM gives
# page cache back to its host within minutes: a run that followed other work once read most
# documents from the disk and measured both servers at ~340 requests/s (disk-bound, not a server
# figure). Reading them right before each server's warm-up puts both on the same footing: the
# export's files for nginx and node:http, the object index and the packs for the proxy.
warm_page_cache() { # <name>
  local started=$SECONDS
  if [[ "$1" == proxy ]]; then
    cat "$SNAPSHOT_DIR/objects.sqlite" "$SNAPS/packs/"*.pack > /dev/null
    log "page cache: read the object index and the packs in $((SECONDS - started)) s"
  else
    sed "s|.*|$EXPORT_DIR/v1/cards/&/$RANGE.json.gz|" "$IDS_FILE" | xargs -d '\n' cat > /dev/null
    log "page cache: read the $ID_COUNT $RANGE files of the export in $((SECONDS - started)) s"
  fi
}

FAILED=0
measure() { # <name> <url> <server pid> <key file or "">
  local name="$1" url="$2" pid="$3" key="$4" before after
  warm_page_cache "$name"
  if (( WARMUP > 0 )); then
    log "$name: warm-up ${WARMUP}s"
    run_wrk "$name-warmup" "$url" "$WARMUP" "$key"
  fi
  before="$(cpu_seconds "$pid")"
  log "$name: measuring ${SECONDS_RUN}s at $CONNECTIONS connections, $THREADS wrk threads"
  run_wrk "$name" "$url" "$SECONDS_RUN" "$key"
  after="$(cpu_seconds "$pid")"
  eval "CPU_$name=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f", a - b }')"
  local bad=0 k
  for k in non2xx connect_err read_err write_err timeout_err; do
    if [[ "$(field "$name" "$k")" != 0 ]]; then bad=1; fi
  done
  if (( WARMUP > 0 )) && [[ "$(field "$name-warmup" non2xx)" != 0 ]]; then bad=1; fi
  if (( bad )); then
    FAILED=1
    log "$name: errors during the run: $(sed -n 's/^BENCH_RESULT //p' "$RUN/$name.wrk")"
  fi
}

measure nginx "$NGINX_URL" "$NGINX_PID" ""

# ---------------------------------------------------------------- the node:http reference
# Plain node:http with the proxy's process layout and its uncached read (bare-node.mjs): no auth,
# limits, audit or log. Only while it is measured, so it takes no memory from the other runs.
node "$HERE/bare-node.mjs" "$EXPORT_DIR" "$WORKERS" > "$RUN/node.out" 2> "$RUN/node.err" &
BARE_PID=$!
NODE_URL="$(wait_for_listening "$BARE_PID" "$RUN/node.out" "$RUN/node.err" "the node:http reference")"
log "node:http reference (primary pid $BARE_PID, $WORKERS workers) on $NODE_URL"
measure node "$NODE_URL" "$BARE_PID" ""
stop_pid "$BARE_PID" TERM 5
BARE_PID=""
AUDIT_BEFORE="$(audit_rows)"   # the sample request above, so it is left out of the comparison
measure proxy "$PROXY_URL" "$PROXY_PID" "$KEY_FILE"

# ---------------------------------------------------------------- 6. audit rows vs answered requests
# Requests still in flight when wrk stops were sent (so the proxy may have answered and audited them)
# but are not counted by wrk; the rows must lie between "answered as seen by wrk" and "sent".
sleep 1
AUDIT_AFTER="$(audit_rows)"
AUDIT_ROWS=$(( AUDIT_AFTER - AUDIT_BEFORE ))
ANSWERED="$(field proxy requests)"
SENT="$(field proxy sent)"
if (( WARMUP > 0 )); then
  ANSWERED=$(( ANSWERED + $(field proxy-warmup requests) ))
  SENT=$(( SENT + $(field proxy-warmup sent) ))
fi
if (( AUDIT_ROWS >= ANSWERED && AUDIT_ROWS <= SENT )); then
  AUDIT_VERDICT="ok"
else
  AUDIT_VERDICT="MISMATCH"
  FAILED=1
fi
ERR_LOG_LINES="$(grep -c . "$RUN/nginx/error.log" 2>/dev/null || true)"

# ---------------------------------------------------------------- 7. the result
NGINX_RPS="$(rps nginx)"
PROXY_RPS="$(rps proxy)"
NODE_RPS="$(rps node)"
RATIO_NODE="$(ratio "$PROXY_RPS" "$NODE_RPS")"
NODE_OF_NGINX="$(ratio "$NODE_RPS" "$NGINX_RPS")"
RATIO="$(awk -v p="$PROXY_RPS" -v n="$NGINX_RPS" 'BEGIN { if (n > 0) printf "%.3f", p / n; else print "n/a" }')"
PROXY_P99_MS="$(ms "$(field proxy p99_us)")"
RATIO_OK="$(awk -v r="$RATIO" 'BEGIN { print (r != "n/a" && r >= 0.25) ? "met" : "MISSED" }')"
P99_OK="$(awk -v p="$PROXY_P99_MS" 'BEGIN { print (p < 10) ? "met" : "MISSED" }')"
cpu_per_k() { awk -v c="$1" -v n="$(field "$2" requests)" 'BEGIN { if (n > 0) printf "%.1f", c * 1000 * 1000 / n; else print "n/a" }'; }

CPU_MODEL="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
NGINX_VERSION="$("$NGINX" -v 2>&1 | sed 's/^nginx version: //')"
# `wrk -v` prints its version and then exits 1 (it wants a URL).
WRK_VERSION="$( { wrk -v 2>&1 || true; } | head -n 1 | awk '{ print $1, $2 }')"
PACK_BYTES="$(du -shL "$SNAPS/packs" 2>/dev/null | cut -f1)"
INDEX_BYTES="$(du -sh "$SNAPSHOT_DIR/objects.sqlite" 2>/dev/null | cut -f1)"
EXPORT_BYTES="$(du -sh "$EXPORT_DIR/v1/cards" 2>/dev/null | cut -f1)"

{
  echo "Proxy throughput, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- command: \`$COMMAND_LINE\` (BENCH_CARDS=$CARDS BENCH_SECONDS=$SECONDS_RUN BENCH_WARMUP=$WARMUP BENCH_CONNECTIONS=$CONNECTIONS BENCH_THREADS=$THREADS BENCH_WORKERS=$WORKERS)"
  echo "- machine: $(nproc) cores ($CPU_MODEL), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), node $(node --version), $NGINX_VERSION, $WRK_VERSION; load average before / after: $LOADAVG_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- load: wrk -t$THREADS -c$CONNECTIONS -d${SECONDS_RUN}s --latency after a ${WARMUP}s warm-up, GET /v1/cards/<random id>?range=$RANGE with Accept-Encoding: gzip over $ID_COUNT card ids of a $CARDS-card packed snapshot (packs $PACK_BYTES, object index $INDEX_BYTES; the export's card files, all ranges: $EXPORT_BYTES on disk); the proxy run also sends Authorization: Bearer <enterprise key>"
  echo "- node: \`node scripts/bench-proxy/bare-node.mjs <export> $WORKERS\` (nginx's files, no auth/limits/audit/log)"
  echo "- proxy: \`catalog serve --workers $WORKERS\` on the packed snapshot (index lookup + pread), fresh state file, CATALOG_TIER_LIMITS enterprise=$ENTERPRISE_LIMIT/min so the load is not rate limited; nginx: the \`catalog mirror --layout files\` export of the same snapshot, 2 worker processes, gzip_static, sendfile, ETag from etags.map, access log off"
  echo
  echo "| target | requests/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | socket errors | server CPU per 1k req |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for t in nginx node proxy; do
    cpu_var="CPU_$t"
    echo "| $t | $(rps "$t") | $(ms "$(field "$t" p50_us)") | $(ms "$(field "$t" p90_us)") | $(ms "$(field "$t" p99_us)") | $(ms "$(field "$t" max_us)") | $(field "$t" non2xx) | $(( $(field "$t" connect_err) + $(field "$t" read_err) + $(field "$t" write_err) + $(field "$t" timeout_err) )) | $(cpu_per_k "${!cpu_var}" "$t") ms |"
  done
  echo
  echo "- proxy/nginx throughput: **$RATIO** (target >= 0.25: $RATIO_OK); proxy p99 **$PROXY_P99_MS ms** at $CONNECTIONS connections (target < 10 ms: $P99_OK)"
  echo "- reference: plain node:http (scripts/bench-proxy/bare-node.mjs, $WORKERS workers, readFileSync of the export's file per request, nothing else) did **$NODE_OF_NGINX** of nginx; the proxy did **$RATIO_NODE** of it (what auth, limits, audit, the log line and Hono cost on top of Node itself)"
  echo "- audit rows written during the load: $AUDIT_ROWS; requests the proxy answered as counted by wrk: $ANSWERED (warm-up + run), sent: $SENT; rows must lie between the two (requests in flight when wrk stops are answered but not counted): $AUDIT_VERDICT"
  echo "- same object from both (sample card $SAMPLE_ID: identical gzip bytes, same ETag $SAMPLE_ETAG)"
  echo "- note: the machine has $(nproc) cores shared by wrk (2 threads) and the server, so both numbers are lower than on a dedicated load generator, and the server that needs more CPU per request loses more to wrk; the ratio is the figure to compare."
} | tee "$WORK/last-result.md"

if (( FAILED )); then
  die "correctness check failed (non-2xx or socket errors, or audit rows out of range); wrk output in $RUN/*.wrk"
fi
