#!/usr/bin/env bash
# A real S3-compatible server on loopback for the S3 store's tests: OpenStack Swift (Debian's 2.30)
# with its S3 layer (s3api) and tempauth, one replica on one folder "device", one process per
# server (workers = 0), everything under a state folder of its own.
#
#   bash scripts/servers/swift.sh install   # Debian packages; apt-get update only when one is missing
#   bash scripts/servers/swift.sh start     # free loopback ports, configs, rings, then waits until S3 answers
#   bash scripts/servers/swift.sh up        # install, then start (what .ci/run does)
#   bash scripts/servers/swift.sh env       # the AWS_* settings of the running server (eval-able)
#   bash scripts/servers/swift.sh status    # exit 0 when every recorded process runs
#   bash scripts/servers/swift.sh stop      # TERM (then KILL) the recorded PIDs, nothing else
#
# Settings (environment): SWIFT_STATE (the state folder, default .servers/swift of the checkout).
# Each PID is written to $SWIFT_STATE/run/<name>.pid the moment the process exists, so a start cut
# short can still be stopped; `stop` signals only those PIDs, and only while /proc/<pid>/cmdline
# still names this state folder (a PID re-used by another program is left alone).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${SWIFT_STATE:-$ROOT/.servers/swift}"
ETC="$STATE/etc"
RUN="$STATE/run"
LOGS="$STATE/log"
DEVICES="$STATE/node"
# Swift's scripts are Debian's python; another python3 may be first in PATH (pyenv on these machines).
PY=/usr/bin/python3
PACKAGES=(swift swift-proxy swift-object swift-container swift-account memcached)
SERVERS=(account container object proxy)
# tempauth's user test:tester with key testing is the S3 access key id / secret; s3api's region.
ACCESS_KEY=test:tester
SECRET_KEY=testing
REGION=us-east-1

log() { printf 'swift.sh: %s\n' "$*" >&2; }
die() { printf 'swift.sh: %s\n' "$*" >&2; exit 1; }

installed() { dpkg-query -W -f='${Status}\n' "${PACKAGES[@]}" 2>/dev/null | grep -c '^install ok installed$' | grep -qx "${#PACKAGES[@]}"; }

cmd_install() {
  if installed; then log "installed already (${PACKAGES[*]})"; return 0; fi
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install ${PACKAGES[*]} from Debian's packages by hand"
  [[ "$(id -u)" == 0 ]] || die "not root: run 'apt-get install -y ${PACKAGES[*]}' as root"
  # Package scripts must not start services (no systemd here); keep a policy-rc.d that says so.
  local own_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  local rc=0
  DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >&2 || rc=$?
  (( own_policy )) && rm -f /usr/sbin/policy-rc.d
  (( rc == 0 )) || die "apt-get install ${PACKAGES[*]} failed (exit $rc)"
  log "installed ${PACKAGES[*]}"
}

# Five TCP ports free on 127.0.0.1 at once (held together, so they differ).
free_ports() {
  node -e '
    const net = require("node:net");
    const s = Array.from({ length: 5 }, () => net.createServer());
    Promise.all(s.map((x) => new Promise((r) => x.listen(0, "127.0.0.1", r)))).then(() => {
      console.log(s.map((x) => x.address().port).join(" "));
      s.forEach((x) => x.close());
    });'
}

pid_of() { [[ -s "$RUN/$1.pid" ]] && cat "$RUN/$1.pid" || true; }
# ours <name>: its recorded PID runs and is still ours: a Swift server's command line names the state
# folder, memcached's names the port it was given (a PID re-used by another program is not ours).
ours() {
  local pid mark="$STATE"
  pid="$(pid_of "$1")"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  [[ "$1" != memcached ]] || mark="-p $(port_of memcached)"
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -e "$mark"
}
running() { local name; for name in memcached "${SERVERS[@]}"; do ours "$name" || return 1; done; }
# port_of <name>: from run/ports, written at start as "proxy account container object memcached".
port_of() {
  local i
  case $1 in proxy) i=1 ;; account) i=2 ;; container) i=3 ;; object) i=4 ;; memcached) i=5 ;; esac
  cut -d' ' -f"$i" "$RUN/ports" 2>/dev/null || true
}

write_configs() {
  local proxy_port="$1" account_port="$2" container_port="$3" object_port="$4" memcached_port="$5"
  mkdir -p "$ETC" "$RUN" "$LOGS" "$DEVICES/d1"
  # swift.conf has a fixed path in Swift (storage policies and the hash prefix are read from there);
  # written once if the machine has none, never changed afterwards.
  if [[ ! -e /etc/swift/swift.conf ]]; then
    mkdir -p /etc/swift
    printf '[swift-hash]\nswift_hash_path_suffix = catalog-tests\nswift_hash_path_prefix = catalog-tests\n\n[storage-policy:0]\nname = default\ndefault = yes\n' \
      > /etc/swift/swift.conf
  fi
  local common="[DEFAULT]
bind_ip = 127.0.0.1
workers = 0
user = $(id -un)
swift_dir = $ETC
devices = $DEVICES
mount_check = false
log_name = %s
"
  local name port
  for name in account container object; do
    case $name in account) port=$account_port ;; container) port=$container_port ;; object) port=$object_port ;; esac
    # shellcheck disable=SC2059
    { printf "$common" "$name-server"
      printf 'bind_port = %s\n\n[pipeline:main]\npipeline = healthcheck %s-server\n\n' "$port" "$name"
      printf '[app:%s-server]\nuse = egg:swift#%s\n\n[filter:healthcheck]\nuse = egg:swift#healthcheck\n' "$name" "$name"
    } > "$ETC/$name-server.conf"
  done
  # s3api before tempauth (it turns an S3 signature into the request tempauth checks); slo and dlo
  # after it, for multipart uploads; account_autocreate so the first bucket creates the account.
  # shellcheck disable=SC2059
  { printf "$common" proxy-server
    cat <<EOF
bind_port = $proxy_port

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
location = $REGION

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = $SECRET_KEY .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$memcached_port

EOF
    # The other filters of the pipeline, with their default settings.
    local filter
    for filter in catch_errors gatekeeper healthcheck proxy-logging listing_formats bulk copy slo dlo; do
      printf '[filter:%s]\nuse = egg:swift#%s\n' "$filter" "${filter//-/_}"
    done
  } > "$ETC/proxy-server.conf"
}

# Single-device rings (2^6 partitions, 1 replica), rebuilt at each start since the ports are in
# them. One python process for the three: swift-ring-builder costs about 2 s a call here (imports),
# nine calls were most of a 23 s start.
build_rings() {
  "$PY" - "$ETC" "$@" <<'EOF_PY' || die "could not build the rings in $ETC"
import sys
from swift.common.ring import RingBuilder
etc, ports = sys.argv[1], sys.argv[2:]
for name, port in zip(("account", "container", "object"), ports):
    builder = RingBuilder(6, 1, 0)
    builder.add_dev({"id": 0, "region": 1, "zone": 1, "ip": "127.0.0.1", "port": int(port), "device": "d1", "weight": 1})
    builder.rebalance()
    builder.save(f"{etc}/{name}.builder")
    builder.get_ring().save(f"{etc}/{name}.ring.gz")
EOF_PY
}

# launch <name> <command...>: runs it in the background with its output in log/<name>.log and
# records its PID at once.
launch() {
  local name="$1"
  shift
  "$@" </dev/null >"$LOGS/$name.log" 2>&1 &
  echo $! > "$RUN/$name.pid"
}

endpoint() { echo "http://127.0.0.1:$(port_of proxy)"; }

cmd_start() {
  installed || die "Swift is not installed: run 'bash scripts/servers/swift.sh install' (as root, Debian)"
  if running; then log "running already at $(endpoint)"; return 0; fi
  cmd_stop 2>/dev/null
  local ports
  ports="$(free_ports)"
  # shellcheck disable=SC2086
  set -- $ports
  write_configs "$@"
  build_rings "$2" "$3" "$4"
  echo "$ports" > "$RUN/ports"
  launch memcached memcached -l 127.0.0.1 -p "$5" -U 0 -u "$(id -un)" -m 64
  local server
  for server in "${SERVERS[@]}"; do
    # -v: log to the console (there is no /dev/log, and syslog would keep nothing).
    launch "$server" "$PY" "/usr/bin/swift-$server-server" "$ETC/$server-server.conf" -v
  done
  local i
  for ((i = 0; i < 300; i++)); do
    for server in memcached "${SERVERS[@]}"; do
      ours "$server" || { tail -n 20 "$LOGS/$server.log" >&2; cmd_stop; die "$server exited while starting (log: $LOGS/$server.log)"; }
    done
    if ready; then log "started at $(endpoint) (state $STATE)"; return 0; fi
    sleep 0.1
  done
  cmd_stop
  die "Swift did not answer within 30 s (logs: $LOGS)"
}

# Ready when every backend answers its healthcheck, tempauth (which needs memcached) hands out a
# token, and an account listing goes through proxy, account server and memcached.
ready() {
  local server token url
  url="$(endpoint)"
  for server in account container object; do
    curl -sf -o /dev/null "http://127.0.0.1:$(port_of "$server")/healthcheck" || return 1
  done
  token="$(curl -s -o /dev/null -D - -H "X-Auth-User: $ACCESS_KEY" -H "X-Auth-Key: $SECRET_KEY" "$url/auth/v1.0" \
    | tr -d '\r' | sed -n 's/^[Xx]-[Aa]uth-[Tt]oken: //p')"
  [[ -n "$token" ]] && curl -sf -o /dev/null -H "X-Auth-Token: $token" "$url/v1/AUTH_test"
}

cmd_stop() {
  local name pid i stopped=()
  for name in proxy object container account memcached; do
    pid="$(pid_of "$name")"
    if ours "$name"; then kill -TERM "$pid" 2>/dev/null && stopped+=("$pid") || true; fi
  done
  for pid in "${stopped[@]}"; do
    for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || continue 2; sleep 0.1; done
    log "pid $pid still running after 5 s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -f "$RUN"/*.pid
  log "stopped${stopped[*]:+ pids ${stopped[*]}}"
}

cmd_env() {
  running || die "not running: start it with 'bash scripts/servers/swift.sh start'"
  cat <<EOF
export AWS_ENDPOINT_URL=$(endpoint)
export AWS_REGION=$REGION
export AWS_ACCESS_KEY_ID=$ACCESS_KEY
export AWS_SECRET_ACCESS_KEY=$SECRET_KEY
export AWS_S3_FORCE_PATH_STYLE=true
EOF
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  up) cmd_install && cmd_start ;;
  stop) cmd_stop ;;
  env) cmd_env ;;
  status) running && log "running at $(endpoint)" || { log "not running"; exit 1; } ;;
  *) die "usage: swift.sh install|start|up|stop|env|status" ;;
esac
