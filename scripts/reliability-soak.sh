#!/usr/bin/env bash
# The reliability suites of test/reliability/ with many more trials than `npm test` runs: more
# SIGKILLs of compiles, pointer switches and the proxy, and a longer fuzz. .ci/run calls it after
# `npm test`; it needs dist/ (npm test builds it). About 3-5 minutes on 2 cores.
#   RELIABILITY_TRIALS=15 (npm test: 2)  compile kills = 2x, pointer-switch kills = 10x, proxy kills = 1x
#   FUZZ_RUNS=20000       (npm test: 1500) hostile requests through app.request
set -euo pipefail
cd "$(dirname "$0")/.."
export RELIABILITY_TRIALS="${RELIABILITY_TRIALS:-15}"
export FUZZ_RUNS="${FUZZ_RUNS:-20000}"
echo "reliability soak: RELIABILITY_TRIALS=$RELIABILITY_TRIALS FUZZ_RUNS=$FUZZ_RUNS"
log="$(mktemp)"
status=0
npx vitest run test/reliability/ >"$log" 2>&1 || status=$?
# The figures each suite prints (docs/reliability.md quotes them), then the summary.
sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -oE '(compile-crash|pointer-switch|proxy-crash|graceful-stop|fuzz-app|slowloris|key generator): .*|Test Files .*|Tests .*' || true
if [ "$status" -ne 0 ]; then cat "$log"; fi
rm -f "$log"
exit "$status"
