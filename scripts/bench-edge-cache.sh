#!/usr/bin/env bash
# Edge cache check (`npm run bench:edge`): a real nginx proxy_cache in front of `catalog serve`,
# showing that it keeps what the proxy's Cache-Control allows (s-maxage=300: HIT without reaching
# the proxy), keeps nothing the proxy marks no-store (errors), serves the stale copy while one
# background request revalidates it (stale-while-revalidate=3600: STALE / UPDATING), and that the
# revalidation carries If-None-Match and gets a 304 from the proxy (counted in the proxy's request
# log and in its metrics on the admin port). Prints a markdown result (also written to
# .bench/edge/last-result.md) and exits 1 when an expectation fails.
#
#   npm run bench:edge                          # builds dist/ first; waits out s-maxage (about 5 min)
#   EDGE_WAIT=0 bash scripts/bench-edge-cache.sh  # skips the part after expiry (about 10 s)
#
# Settings (environment): EDGE_CARDS (300, cards of the generated catalog), EDGE_WAIT (1: wait until
# the cached entry expires, 300 s after it was stored, then check stale-while-revalidate and the 304
# revalidation; 0: skip that), EDGE_BURST (8, parallel requests sent right after expiry).
#
# Needs nginx: installed from Debian's packages when missing, as scripts/bench-proxy.sh does; when
# that is not possible the script prints "skipped: ..." and exits 0. Everything runs on 127.0.0.1,
# with its own config, cache and logs under .bench/edge/; what it starts it stops by PID.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/bench-preamble.sh"
bench_preamble bench-edge
HERE="$ROOT/scripts/bench-edge-cache"

CARDS="${EDGE_CARDS:-300}"
WAIT="${EDGE_WAIT:-1}"
BURST="${EDGE_BURST:-8}"
# The proxy's fixed Cache-Control (API.md §7); the script checks nginx derived the same numbers.
S_MAXAGE=300
SWR=3600

require_whole_numbers CARDS WAIT BURST
(( CARDS >= 1 && BURST >= 1 )) || die "need EDGE_CARDS >= 1 and EDGE_BURST >= 1"

# ---------------------------------------------------------------- 1. nginx
NGINX="$(find_nginx)"
if [[ -z "$NGINX" ]]; then
  log "installing nginx from Debian packages"
  if ! reason="$(install_nginx)"; then echo "skipped: nginx not available ($reason)"; exit 0; fi
  NGINX="$(find_nginx)"
  [[ -n "$NGINX" ]] || { echo "skipped: nginx not available (installed, but not on PATH)"; exit 0; }
fi
require_dist bench:edge

# ---------------------------------------------------------------- 2. catalog and snapshot (cached)
WORK="$ROOT/.bench/edge"
RUN="$WORK/run"
mkdir -p "$WORK"
cached_snapshot "$WORK" "$CARDS" 11 "$WORK/compile.log"
# The first card in key order, from the packed snapshot's object index (there are no card folders).
CARD_ID="$(node scripts/lib/card-ids.mjs "$SNAPSHOT_DIR" 30d | head -n 1)"
[[ -n "$CARD_ID" ]] || die "no card in $SNAPSHOT_DIR/objects.sqlite"
rm -rf "$RUN"
mkdir -p "$RUN/nginx/tmp" "$RUN/nginx/cache"

# ---------------------------------------------------------------- cleanup: stop what we started, by PID
stop_started_on_exit

# ---------------------------------------------------------------- 3. the proxy: fresh state, one key, admin port
STATE="$RUN/state.sqlite"
KEY="$(mint_key "$STATE" edge standard)"
[[ -n "$KEY" ]] || die "could not mint a key"
start_proxy "$RUN/proxy.out" "$RUN/proxy.log" CATALOG_LOG_LEVEL=info -- --workers 1 --admin-port 0
METRICS_URL="$(sed -n 's/^metrics on \(http:[^ ]*\)$/\1/p' "$RUN/proxy.out" | head -n 1)"
UPSTREAM_PORT="${PROXY_URL##*:}"
log "proxy (pid $PROXY_PID) on $PROXY_URL, metrics on $METRICS_URL"

# ---------------------------------------------------------------- 4. nginx with proxy_cache
(umask 077 && printf 'proxy_set_header Authorization "Bearer %s";\n' "$KEY" > "$RUN/nginx/edge-key.conf")
NGINX_URL=""
start_nginx "$HERE/nginx.conf.in" "$RUN/nginx" -e "s|@UPSTREAM_PORT@|$UPSTREAM_PORT|g"
EDGE_URL="$NGINX_URL"
log "edge nginx (pid $NGINX_PID) on $EDGE_URL -> $PROXY_URL"

# ---------------------------------------------------------------- 5. the checks
FAILED=0
ROWS=()
CARD="/v1/cards/$CARD_ID"
proxy_count() { node "$HERE/proxy-log.mjs" "$RUN/proxy.log" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(String(JSON.parse(s)[process.argv[1]] ?? 0)))' "$1"; }
# Request lines leave the proxy through an asynchronous writer; give them a moment before counting.
settle() { sleep 0.3; }
# edge <label> <path> [curl args...] -> a table row: status, X-Cache-Status, proxy 200/304/404 lines so far
edge() {
  local label="$1" path="$2"; shift 2
  local out status cache
  out="$(curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "$@" "$EDGE_URL$path")"
  status="$(printf '%s' "$out" | sed -n '1s/^HTTP\/[0-9.]* \([0-9]*\).*/\1/p')"
  cache="$(printf '%s' "$out" | tr -d '\r' | sed -n 's/^[Xx]-[Cc]ache-[Ss]tatus: //p')"
  settle
  ROWS+=("| $label | \`GET $path\` | $status | ${cache:--} | $(proxy_count "/v1/cards/:id 200") / $(proxy_count "/v1/cards/:id 304") / $(proxy_count "/v1/cards/:id 404") |")
  LAST_STATUS="$status"
  LAST_CACHE="$cache"
  LAST_HEADERS="$out"
}
expect() { # <what> <actual> <expected>
  if [[ "$2" != "$3" ]]; then FAILED=1; log "MISMATCH: $1: got '$2', expected '$3'"; CHECKS+=("- $1: **got $2, expected $3**"); else CHECKS+=("- $1: $2 (as expected)"); fi
}
CHECKS=()

edge "1. first read" "$CARD"
FILLED_AT="$(date +%s)"
expect "first read: status, cache" "$LAST_STATUS $LAST_CACHE" "200 MISS"
ETAG="$(printf '%s' "$LAST_HEADERS" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')"
CACHE_CONTROL="$(printf '%s' "$LAST_HEADERS" | tr -d '\r' | sed -n 's/^[Cc]ache-[Cc]ontrol: //p')"
expect "Cache-Control the proxy sent" "$CACHE_CONTROL" "public, s-maxage=$S_MAXAGE, stale-while-revalidate=$SWR"
edge "2. again, within s-maxage" "$CARD"
expect "second read: served from the edge, the proxy not asked" "$LAST_STATUS $LAST_CACHE $(proxy_count "/v1/cards/:id 200")" "200 HIT 1"
edge "3. client revalidates with If-None-Match" "$CARD" -H "If-None-Match: $ETAG"
expect "client's If-None-Match answered by the edge" "$LAST_STATUS $LAST_CACHE $(proxy_count "/v1/cards/:id 304")" "304 HIT 0"
edge "4. client sends a wrong key" "$CARD" -H 'Authorization: Bearer rxk_not-the-edge-key-not-the-edge-k'
expect "the edge uses its own key, whatever the client sends" "$LAST_STATUS $LAST_CACHE" "200 HIT"
edge "5. unknown card (404, no-store)" "/v1/cards/no-such-card-0"
edge "6. the same unknown card" "/v1/cards/no-such-card-0"
expect "errors are not kept (no-store): both 404s reached the proxy" "$(proxy_count "/v1/cards/:id 404")" "2"

CACHE_FILE="$(grep -rl --include='*' -a "KEY: http://catalog$CARD" "$RUN/nginx/cache" | head -n 1 || true)"
[[ -n "$CACHE_FILE" ]] || die "no cache file for $CARD under $RUN/nginx/cache"
ENTRY="$(node "$HERE/cache-entry.mjs" "$CACHE_FILE")"
field() { node -e 'const o=JSON.parse(process.argv[1]);process.stdout.write(String(o[process.argv[2]]))' "$1" "$2"; }
expect "nginx's stored freshness (valid_sec - date)" "$(field "$ENTRY" freshSeconds)" "$S_MAXAGE"
expect "nginx's stored stale-while-revalidate window" "$(field "$ENTRY" staleWhileRevalidateSeconds)" "$SWR"
expect "the ETag nginx will revalidate with" "$(field "$ENTRY" etag)" "$ETAG"
KEY_IN_CACHE="$( { grep -rl -a -- "$KEY" "$RUN/nginx/cache" || true; } | wc -l)"
expect "cache files holding the bearer key" "$KEY_IN_CACHE" "0"

BURST_LINE="skipped (EDGE_WAIT=0)"
BURST_LOG="(skipped: EDGE_WAIT=0)"
if (( WAIT )); then
  # nginx stored the entry at FILLED_AT with valid_sec = FILLED_AT + 300; one second more to be past it.
  until_expiry=$(( FILLED_AT + S_MAXAGE + 1 - $(date +%s) ))
  log "waiting ${until_expiry}s for the cached entry to expire (s-maxage=$S_MAXAGE)"
  (( until_expiry > 0 )) && sleep "$until_expiry"
  ACCESS_BEFORE="$(wc -l < "$RUN/nginx/access.log")"
  # A burst right at expiry: the first request gets the stale copy (STALE) and starts the one
  # background revalidation; requests arriving while it is in flight get UPDATING, later ones HIT.
  seq "$BURST" | xargs -P "$BURST" -I{} curl -s -o /dev/null -H 'Accept-Encoding: gzip' -w '%{http_code}\n' "$EDGE_URL$CARD" > "$RUN/burst.txt"
  sleep 1
  BURST_STATUSES="$(sort "$RUN/burst.txt" | uniq -c | awk '{ printf "%s%s x %s", sep, $2, $1; sep=", " }')"
  BURST_CACHE="$(tail -n "+$(( ACCESS_BEFORE + 1 ))" "$RUN/nginx/access.log" | sed -n 's/.* cache=\([A-Z-]*\) .*/\1/p' | sort | uniq -c | awk '{ printf "%s%s x %s", sep, $2, $1; sep=", " }')"
  BURST_UPSTREAM="$(tail -n "+$(( ACCESS_BEFORE + 1 ))" "$RUN/nginx/access.log" | sed -n 's/.* upstream_status=\([0-9-]*\)$/\1/p' | grep -c '^304$' || true)"
  BURST_LINE="$BURST parallel requests right after expiry: HTTP $BURST_STATUSES; nginx's access log: $BURST_CACHE (the REVALIDATED line is the background revalidation subrequest; upstream 304s: $BURST_UPSTREAM)"
  BURST_LOG="$(tail -n "+$(( ACCESS_BEFORE + 1 ))" "$RUN/nginx/access.log")"
  expect "burst after expiry: every client got 200" "$(grep -c '^200$' "$RUN/burst.txt")" "$BURST"
  expect "burst after expiry: background revalidations answered 304 by the proxy" "$BURST_UPSTREAM" "1"
  STALE_SERVED="$(tail -n "+$(( ACCESS_BEFORE + 1 ))" "$RUN/nginx/access.log" | grep -cE 'cache=(STALE|UPDATING)' || true)"
  expect "burst after expiry: stale copies served while revalidating (STALE or UPDATING) > 0" "$(( STALE_SERVED > 0 ? 1 : 0 ))" "1"
  settle
  expect "revalidations that reached the proxy, answered 304 (If-None-Match matched)" "$(proxy_count "/v1/cards/:id 304")" "1"
  edge "7. after the background revalidation" "$CARD"
  expect "after revalidation: fresh again at the edge" "$LAST_STATUS $LAST_CACHE $(proxy_count "/v1/cards/:id 200")" "200 HIT 1"
  ENTRY_AFTER="$(node "$HERE/cache-entry.mjs" "$CACHE_FILE")"
  expect "the entry's freshness after the 304" "$(field "$ENTRY_AFTER" freshSeconds)" "$S_MAXAGE"
fi

METRIC_LINES="$(curl -s "$METRICS_URL" | grep -E '^catalog_http_requests_total\{route="/v1/cards/:id"' || true)"
REVALIDATION_LOG_LINE="$(grep '"status":304' "$RUN/proxy.log" | head -n 1 || true)"

# ---------------------------------------------------------------- 6. the result
NGINX_VERSION="$("$NGINX" -v 2>&1 | sed 's/^nginx version: //')"
{
  echo "Edge cache, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- command: \`$COMMAND_LINE\` (EDGE_CARDS=$CARDS EDGE_WAIT=$WAIT EDGE_BURST=$BURST)"
  echo "- $NGINX_VERSION with proxy_cache (scripts/bench-edge-cache/nginx.conf.in) in front of \`catalog serve --workers 1 --admin-port 0\`, node $(node --version), on 127.0.0.1"
  echo "- document: \`$CARD\` (30d) of a $CARDS-card snapshot; every request sends Accept-Encoding: gzip; the edge adds its own key"
  echo
  echo "| step | request to the edge | status | X-Cache-Status | proxy's request lines so far: 200 / 304 / 404 |"
  echo "|---|---|---:|---|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  echo "- nginx's cache entry after the first read: $ENTRY"
  echo "- after expiry: $BURST_LINE"
  echo
  echo "Checks:"
  echo
  printf '%s\n' "${CHECKS[@]}"
  echo
  echo "nginx's access log for the burst after expiry (\`log_format edge\`):"
  echo
  echo '```'
  echo "$BURST_LOG"
  echo '```'
  echo
  echo "The proxy's request line for the revalidation (its stderr):"
  echo
  echo '```'
  echo "${REVALIDATION_LOG_LINE:-(none: EDGE_WAIT=0)}"
  echo '```'
  echo
  echo "The proxy's metrics for the route afterwards (admin port):"
  echo
  echo '```'
  echo "$METRIC_LINES"
  echo '```'
} | tee "$WORK/last-result.md"

(( FAILED == 0 )) || die "an expectation failed (see MISMATCH above); logs in $RUN"
