# The start every benchmark shell script shares: the project root as working folder, its log and
# failure lines, the command line its result names, the checks of its numeric settings and of
# dist/; and the function files they use (bench-catalog.sh, bench-run.sh, bench-wrk.sh), loaded here. Sourced (not
# run) by scripts/bench-proxy.sh, scripts/bench-fleet-proxy.sh and scripts/bench-edge-cache.sh.
source "$(dirname "${BASH_SOURCE[0]}")/bench-catalog.sh"
source "$(dirname "${BASH_SOURCE[0]}")/bench-run.sh"
source "$(dirname "${BASH_SOURCE[0]}")/bench-wrk.sh"

# bench_preamble <log name>: sets ROOT (the project) and changes to it, so the CLI is bin/catalog.js
# and results go under .bench/; log() and die() print "<log name>: ..." on stderr (die exits 1);
# COMMAND_LINE says how the script was started: `npm run <script>` (npm sets npm_lifecycle_event)
# or `bash scripts/<this script>`.
bench_preamble() {
  ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  cd "$ROOT"
  BENCH_LOG_NAME="$1"
  if [[ -n "${npm_lifecycle_event:-}" ]]; then COMMAND_LINE="npm run $npm_lifecycle_event"; else COMMAND_LINE="bash scripts/$(basename "$0")"; fi
}
log() { printf '%s: %s\n' "$BENCH_LOG_NAME" "$*" >&2; }
die() { printf '%s: FAILED: %s\n' "$BENCH_LOG_NAME" "$*" >&2; exit 1; }

# require_whole_numbers <variable name>...: dies naming the first variable whose value is not digits.
require_whole_numbers() {
  local v
  for v in "$@"; do [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a whole number, got '${!v}'"; done
}

# require_dist <npm script>: the scripts run the built CLI; say how to build it when it is missing.
require_dist() {
  [[ -f dist/cli/main.js ]] || die "dist/cli/main.js is missing: run \`npm run build\` (or \`npm run $1\`, which builds)"
}
