#!/usr/bin/env bash
# A proxy fleet on one machine (issue 18, docs/operations.md#a-fleet-on-one-machine): Redis and
# PostgreSQL on loopback (scripts/servers/{redis,postgres}.sh), THREE `catalog serve` processes as
# three hosts (their own ports, no file shared between them: their state is PostgreSQL + Redis), and
# nginx in front as the load balancer. Every PID is recorded the moment its process exists, and
# `down` stops those and nothing else.
#
#   bash scripts/fleet.sh up       # npm run fleet:up; installs what is missing (Debian), starts, prints the URLs
#   bash scripts/fleet.sh status   # what runs, where, and each host's /readyz
#   bash scripts/fleet.sh env      # CATALOG_STATE_URL, CATALOG_REDIS_URL, FLEET_URL (eval-able)
#   bash scripts/fleet.sh down     # npm run fleet:down; stops nginx, the hosts, Redis, PostgreSQL (recorded PIDs only)
#
# The snapshot: a generated catalog (FLEET_CARDS cards, default 1000) compiled and signed once into
# $FLEET_STATE/snapshot/, then kept. The hosts read it from that folder (it is read-only for them,
# like a bucket): seconds to start, no third server. FLEET_SNAPSHOTS=s3://bucket/prefix (an existing
# bucket; AWS_* settings from the environment, e.g. `eval "$(bash scripts/servers/swift.sh env)"`)
# publishes it there with `catalog publish` and has every host read the object store instead, the
# production shape (each host then keeps its own --snapshot-cache).
#
# Settings (environment): FLEET_STATE (state folder, default .servers/fleet of the checkout; Redis
# and PostgreSQL keep their data under it between runs), FLEET_HOSTS (3), FLEET_CARDS (1000),
# FLEET_TIER_LIMITS (CATALOG_TIER_LIMITS of the hosts, default the product's), FLEET_SNAPSHOTS,
# FLEET_STATE_URL / FLEET_REDIS_URL (use a PostgreSQL database / a Redis already running instead of
# starting one: `down` then leaves it alone).
#
# Secrets never reach the terminal, a log or a command line: the PostgreSQL password stays in its
# state folder, the hosts get the URLs through their environment, the internal (admin) key and the
# demo key are files of mode 600 under $FLEET_STATE/run/ that the output names.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NAME=fleet
STATE="${FLEET_STATE:-$ROOT/.servers/fleet}"
RUN="$STATE/run"
LOGS="$STATE/log"
HOSTS="${FLEET_HOSTS:-3}"
CARDS="${FLEET_CARDS:-1000}"
SNAPSHOT_HOME="$STATE/snapshot"
PUBLIC_KEY="$SNAPSHOT_HOME/signing/signing-key.pub.pem"
NGINX_HOME="$STATE/nginx"
export REDIS_STATE="$STATE/redis" PG_STATE="$STATE/postgres"
# shellcheck source=servers/lib.sh
source "$ROOT/scripts/servers/lib.sh"

[[ "$HOSTS" =~ ^[1-9]$ ]] || die "FLEET_HOSTS must be 1 to 9, not '$HOSTS'"
[[ "$CARDS" =~ ^[1-9][0-9]*$ ]] || die "FLEET_CARDS must be a positive whole number, not '$CARDS'"

hosts() { seq 1 "$HOSTS"; }
# ours <name>: the recorded PID runs and is the process this fleet started (a reused PID is not).
# A host's command line names this state folder (its --public-key); nginx's master keeps its
# original command line after "nginx: master process", which names the config under it.
ours() {
  local pid
  pid="$(pid_of "$1")"
  [[ -n "$pid" ]] || return 1
  case "$1" in
    nginx) cmdline_of "$pid" | grep -qF -- "-c $NGINX_HOME/nginx.conf" ;;
    host-*) cmdline_of "$pid" | grep -qF -- "$ROOT/bin/catalog.js serve" && cmdline_of "$pid" | grep -qF -- "$PUBLIC_KEY" ;;
    *) return 1 ;;
  esac
}
port_of() { cat "$RUN/$1.port" 2>/dev/null || true; }
url_of() { echo "http://127.0.0.1:$(port_of "$1")"; }
ready() { [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$(url_of "$1")/readyz")" == 200 ]]; }
server_script() { echo "$ROOT/scripts/servers/$1.sh"; }
# The URL a server script's `env` prints (`export NAME=value`).
server_url() { bash "$(server_script "$1")" env | sed -n "s/^export $2=//p"; }
masked() { sed 's|://\([^:/@]*\):[^@]*@|://\1:***@|'; }
nginx_bin() { local p; for p in /usr/sbin/nginx /usr/local/sbin/nginx /usr/bin/nginx; do [[ -x "$p" ]] && { echo "$p"; return 0; }; done; command -v nginx || true; }

# ---------------------------------------------------------------- the state servers
# (empty when the server does not run: status and env say so instead of failing)
state_urls() {
  if [[ -n "${FLEET_STATE_URL:-}" ]]; then STATE_URL="$FLEET_STATE_URL"; else STATE_URL="$(server_url postgres CATALOG_STATE_URL 2>/dev/null || true)"; fi
  if [[ -n "${FLEET_REDIS_URL:-}" ]]; then REDIS_URL="$FLEET_REDIS_URL"; else REDIS_URL="$(server_url redis CATALOG_REDIS_URL 2>/dev/null || true)"; fi
}

start_state_servers() {
  # Redis first: it starts in 0.1 s; PostgreSQL's first start runs initdb (seconds).
  if [[ -z "${FLEET_REDIS_URL:-}" ]]; then bash "$(server_script redis)" up; fi
  if [[ -z "${FLEET_STATE_URL:-}" ]]; then bash "$(server_script postgres)" up; fi
  state_urls
  [[ -n "$STATE_URL" && -n "$REDIS_URL" ]] || die "the state servers did not give their URLs"
}

# ---------------------------------------------------------------- the snapshot
# Generated, signed and compiled once; `current` appears only when a compile is complete, so its
# presence means a finished earlier run.
ensure_snapshot() {
  local catalog="$SNAPSHOT_HOME/catalog" root="$SNAPSHOT_HOME/root"
  if [[ -e "$root/current" ]]; then log "snapshot $(basename "$(readlink -f "$root/current")") (kept from an earlier up)"; return 0; fi
  mkdir -p "$SNAPSHOT_HOME"
  if [[ ! -f "$catalog/meta.json" ]]; then
    rm -rf "$catalog"
    node "$ROOT/bin/catalog.js" generate --out "$catalog" --cards "$CARDS" --seed 18 > "$LOGS/generate.log" 2>&1 \
      || { tail -n 20 "$LOGS/generate.log" >&2; die "catalog generate failed (log: $LOGS/generate.log)"; }
  fi
  if [[ ! -f "$SNAPSHOT_HOME/signing/signing-key.pem" ]]; then
    rm -rf "$SNAPSHOT_HOME/signing"
    node "$ROOT/bin/catalog.js" signing init --out "$SNAPSHOT_HOME/signing" > "$LOGS/signing.log" 2>&1 \
      || { tail -n 20 "$LOGS/signing.log" >&2; die "catalog signing init failed (log: $LOGS/signing.log)"; }
  fi
  node "$ROOT/bin/catalog.js" compile --source "$catalog" --out "$root" --sign-key "$SNAPSHOT_HOME/signing/signing-key.pem" \
    > "$LOGS/compile.log" 2>&1 || { tail -n 20 "$LOGS/compile.log" >&2; die "catalog compile failed (log: $LOGS/compile.log)"; }
  log "snapshot $(basename "$(readlink -f "$root/current")") compiled ($CARDS generated cards, signed)"
}

# The root the hosts read: the local folder, or the object store it is published to.
snapshots_root() { echo "${FLEET_SNAPSHOTS:-$SNAPSHOT_HOME/root}"; }

publish_snapshot() {
  [[ -n "${FLEET_SNAPSHOTS:-}" ]] || return 0
  [[ "$FLEET_SNAPSHOTS" == s3://* ]] || die "FLEET_SNAPSHOTS must be s3://bucket/prefix, not '$FLEET_SNAPSHOTS'"
  node "$ROOT/bin/catalog.js" publish --from "$SNAPSHOT_HOME/root" --to "$FLEET_SNAPSHOTS" > "$LOGS/publish.log" 2>&1 \
    || { tail -n 20 "$LOGS/publish.log" >&2; die "catalog publish to $FLEET_SNAPSHOTS failed (log: $LOGS/publish.log; AWS_* set? the bucket exists?)"; }
  log "snapshot published to $FLEET_SNAPSHOTS"
}

# ---------------------------------------------------------------- secrets (files of mode 600)
secret_file() { # <name>: creates run/<name> with 32 random bytes (base64url) once
  local file="$RUN/$1"
  [[ -s "$file" ]] || (umask 077 && head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' > "$file")
}

# The demo key: a free-tier key minted once into PostgreSQL, kept in run/demo.key. `--state` takes
# the URL, so it reaches the CLI through the environment variable instead of the command line.
mint_demo_key() {
  local file="$RUN/demo.key" out
  if [[ -s "$file" ]]; then return 0; fi
  out="$(env CATALOG_STATE_URL="$STATE_URL" CATALOG_REDIS_URL="$REDIS_URL" \
    node "$ROOT/bin/catalog.js" keys mint --tenant fleet-demo --tier free --json 2> "$LOGS/mint.log")" \
    || { tail -n 5 "$LOGS/mint.log" >&2; die "catalog keys mint failed (log: $LOGS/mint.log)"; }
  (umask 077 && node -e 'process.stdout.write(JSON.parse(process.argv[1]).key)' "$out" > "$file")
  log "minted a free-tier key for tenant fleet-demo into PostgreSQL (key in $file, mode 600)"
}

# ---------------------------------------------------------------- the hosts
start_host() { # <n>
  local name="host-$1" root
  if ours "$name"; then log "$name running already at $(url_of "$name") (pid $(pid_of "$name"))"; return 0; fi
  root="$(snapshots_root)"
  # The port it had before when still free: a host restarted by `up` (after a crash) fits the
  # load balancer's configuration again.
  local port
  port="$(free_port "$(port_of "$name")")"
  echo "$port" > "$RUN/$name.port"
  local args=(serve --snapshots "$root" --host 127.0.0.1 --port "$port" --workers 1 --public-key "$PUBLIC_KEY")
  [[ "$root" == s3://* ]] && args+=(--snapshot-cache "$STATE/$name/snapshot-cache")
  mkdir -p "$STATE/$name"
  # setsid: each host leads a process group of its own (a kill -9 of a host is the whole host). Only
  # these variables reach it: no session or key from the caller's shell.
  local vars=(PATH="$PATH" HOME="${HOME:-/root}" CATALOG_STATE_URL="$STATE_URL" CATALOG_REDIS_URL="$REDIS_URL"
    CATALOG_INTERNAL_KEY="$(cat "$RUN/internal.key")") v
  [[ -n "${FLEET_TIER_LIMITS:-}" ]] && vars+=(CATALOG_TIER_LIMITS="$FLEET_TIER_LIMITS")
  for v in AWS_ENDPOINT_URL AWS_REGION AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_S3_FORCE_PATH_STYLE; do
    [[ -n "${!v:-}" ]] && vars+=("$v=${!v}")
  done
  launch "$name" env -i "${vars[@]}" setsid node "$ROOT/bin/catalog.js" "${args[@]}"
}

wait_host() { # <n>: its `listening on` line, then /readyz 200 (fleet state reachable, snapshot loaded)
  local name="host-$1" i
  for ((i = 0; i < 600; i++)); do
    alive "$name" || { tail -n 20 "$LOGS/$name.log" >&2; die "$name exited while starting (log: $LOGS/$name.log)"; }
    if ready "$name"; then log "$name ready at $(url_of "$name") (pid $(pid_of "$name"))"; return 0; fi
    sleep 0.1
  done
  die "$name was not ready within 60 s (log: $LOGS/$name.log)"
}

# ---------------------------------------------------------------- nginx, the load balancer
write_nginx_conf() { # <port>
  local n upstream=""
  for n in $(hosts); do upstream+="    server 127.0.0.1:$(port_of "host-$n") max_fails=1 fail_timeout=2s;"$'\n'; done
  mkdir -p "$NGINX_HOME/tmp"
  cat > "$NGINX_HOME/nginx.conf" <<CONF
# Written by scripts/fleet.sh: the load balancer of the local fleet (docs/operations.md).
daemon off;
master_process on;
worker_processes 1;
pid $NGINX_HOME/nginx.pid;
error_log $NGINX_HOME/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $NGINX_HOME/tmp;
  proxy_temp_path $NGINX_HOME/tmp;
  fastcgi_temp_path $NGINX_HOME/tmp;
  uwsgi_temp_path $NGINX_HOME/tmp;
  scgi_temp_path $NGINX_HOME/tmp;
  server_tokens off;
  upstream catalog_hosts {
    # Round robin. A host that refuses connections is left out for 2 s (passive checks: open-source
    # nginx has no active /readyz probe; production load balancers poll /readyz, see operations.md).
$upstream    keepalive 32;
  }
  server {
    listen 127.0.0.1:$1;
    location / {
      proxy_pass http://catalog_hosts;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      # Only a connection that failed or timed out moves a request to the next host (nginx never does
      # that for a non-idempotent method); a host's own 503 (state server down) goes to the client
      # with its Retry-After, which is what the client is told to do.
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      # Never buffer an answer to a temp file: the workers (www-data) may not enter a private
      # state folder (a test's mkdtemp one is 0700); answers stream through instead.
      proxy_max_temp_file_size 0;
      # Which host answered, for people trying the local fleet (a production balancer need not say).
      add_header X-Fleet-Host \$upstream_addr always;
    }
  }
}
CONF
}

start_nginx_lb() {
  local bin port i
  if ours nginx; then log "nginx running already at $(url_of nginx) (pid $(pid_of nginx))"; return 0; fi
  bash "$ROOT/scripts/servers/install-nginx.sh" >&2
  bin="$(nginx_bin)"
  [[ -n "$bin" ]] || die "nginx is not installed: run 'bash scripts/servers/install-nginx.sh' (root, Debian)"
  port="$(free_port "$(port_of nginx)")"
  write_nginx_conf "$port"
  "$bin" -t -q -e "$NGINX_HOME/error.log" -p "$NGINX_HOME/" -c "$NGINX_HOME/nginx.conf" \
    || die "nginx rejected $NGINX_HOME/nginx.conf (see $NGINX_HOME/error.log)"
  echo "$port" > "$RUN/nginx.port"
  launch nginx "$bin" -e "$NGINX_HOME/error.log" -p "$NGINX_HOME/" -c "$NGINX_HOME/nginx.conf"
  for ((i = 0; i < 100; i++)); do
    alive nginx || { tail -n 20 "$NGINX_HOME/error.log" >&2; die "nginx exited while starting (log: $NGINX_HOME/error.log)"; }
    if [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$(url_of nginx)/readyz")" == 200 ]]; then
      log "nginx (load balancer) ready at $(url_of nginx) (pid $(pid_of nginx))"
      return 0
    fi
    sleep 0.1
  done
  die "nginx did not answer /readyz through the hosts within 10 s (log: $NGINX_HOME/error.log)"
}

# ---------------------------------------------------------------- commands
cmd_up() {
  local n started=$SECONDS
  trap 'rc=$?; (( rc == 0 )) || log "up did not finish: \`bash scripts/fleet.sh down\` stops what it started"' EXIT
  mkdir -p "$RUN" "$LOGS"
  start_state_servers
  ensure_snapshot
  publish_snapshot
  secret_file internal.key
  # The hosts migrate the schema at start (under an advisory lock); the key is minted after the
  # first host is ready, so the CLI finds the schema in place.
  for n in $(hosts); do start_host "$n"; done
  for n in $(hosts); do wait_host "$n"; done
  mint_demo_key
  start_nginx_lb
  log "up in $((SECONDS - started)) s"
  cmd_status_lines
}

cmd_status_lines() {
  local n state
  state_urls
  if ours nginx; then state="pid $(pid_of nginx)"; else state="NOT RUNNING"; fi
  echo "load balancer  $(url_of nginx)   (nginx, $state)"
  for n in $(hosts); do
    if ours "host-$n" && ready "host-$n"; then state="pid $(pid_of "host-$n"), ready"
    elif ours "host-$n"; then state="pid $(pid_of "host-$n"), NOT READY"; else state="NOT RUNNING"; fi
    echo "host-$n         $(url_of "host-$n")   ($state)"
  done
  echo "redis          ${REDIS_URL:-NOT RUNNING}"
  echo "postgres       $(echo "${STATE_URL:-NOT RUNNING}" | masked)"
  echo "snapshots      $(snapshots_root)"
  echo "demo key       $RUN/demo.key (free tier)   admin key: $RUN/internal.key"
  if ours nginx; then
    echo "try: curl -s -H \"Authorization: Bearer \$(cat $RUN/demo.key)\" $(url_of nginx)/v1/catalog/summary"
  fi
}

cmd_status() {
  local bad=0 n
  ours nginx || bad=1
  for n in $(hosts); do ours "host-$n" && ready "host-$n" || bad=1; done
  cmd_status_lines
  (( bad == 0 )) || { log "not every part of the fleet runs or is ready"; exit 1; }
}

cmd_env() {
  state_urls
  echo "export CATALOG_STATE_URL=$STATE_URL"
  echo "export CATALOG_REDIS_URL=$REDIS_URL"
  echo "export FLEET_URL=$(url_of nginx)"
}

cmd_down() {
  local n
  [[ -d "$RUN" ]] || { log "nothing recorded under $STATE"; return 0; }
  stop_recorded nginx QUIT
  # TERM: each host finishes its requests (it drains) and exits; in parallel, they are independent.
  for n in $(hosts); do stop_recorded "host-$n" TERM & done
  wait
  # Only the servers this fleet started (a FLEET_*_URL one is someone else's).
  if [[ -z "${FLEET_REDIS_URL:-}" ]]; then bash "$(server_script redis)" stop; fi
  if [[ -z "${FLEET_STATE_URL:-}" ]]; then bash "$(server_script postgres)" stop; fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  env) cmd_env ;;
  *) die "usage: fleet.sh up|down|status|env" ;;
esac
