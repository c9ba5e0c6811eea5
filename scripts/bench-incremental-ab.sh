#!/usr/bin/env bash
# Two builds' incremental compiles, alternating (docs/benchmarks.md: "Alternating with ..."): build A
# (another checkout, built) on one root and build B (this checkout) on another, after the same 1%
# price change, the page cache dropped before each compile (so no build inherits the other's warm
# files), the order swapped every round (so neither is always the one after a drop that follows the
# other's writes). One line per compile: wall, user and system seconds, peak KB, and the phases.
#
#   bash scripts/bench-incremental-ab.sh --base /tmp/base --catalog .bench/packs/catalog-1000000 \
#     --base-root .bench/packs/root-main --root .bench/packs/root-1m --rounds 4
#
# The catalog folder holds two price files, prices.full.ndjson and prices.changed.ndjson (the first
# with the last price of every 100th line changed: scripts/lib/touch-prices.mjs), and prices.ndjson as
# a hard link to one of them, switched to the other before each round: each round is a 1% change
# for both roots. Each root must have been compiled from that catalog by its own build first (a
# build's first compile on a root written by another is a full read of the catalog: the stored
# catalog records the code that wrote it). Needs root (it writes /proc/sys/vm/drop_caches).
#
# A checkout of another commit, built:
#   git worktree add -f /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules \
#     && (cd /tmp/base && npx tsc -p tsconfig.json)
set -euo pipefail
cd "$(dirname "$0")/.."

base='' catalog='' base_root='' root='' rounds=4
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --catalog) catalog=$2; shift 2 ;;
    --base-root) base_root=$2; shift 2 ;;
    --root) root=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "bench-incremental-ab: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$base" ] || [ -z "$catalog" ] || [ -z "$base_root" ] || [ -z "$root" ]; then
  echo "usage: bash scripts/bench-incremental-ab.sh --base <built checkout> --catalog <dir> --base-root <dir> --root <dir> [--rounds N]" >&2
  exit 2
fi
for f in prices.full.ndjson prices.changed.ndjson prices.ndjson; do
  [ -f "$catalog/$f" ] || { echo "bench-incremental-ab: $catalog/$f is missing (see the comment at the top)" >&2; exit 2; }
done
[ -f "$base/bin/catalog.js" ] && [ -d "$base/dist" ] || { echo "bench-incremental-ab: $base is not a built checkout" >&2; exit 2; }
[ -w /proc/sys/vm/drop_caches ] || { echo "bench-incremental-ab: needs root to drop the page cache" >&2; exit 2; }

switch_prices() {
  local now=prices.full.ndjson next=prices.changed.ndjson
  if [ "$catalog/prices.ndjson" -ef "$catalog/prices.changed.ndjson" ]; then now=prices.changed.ndjson next=prices.full.ndjson; fi
  rm "$catalog/prices.ndjson"
  ln "$catalog/$next" "$catalog/prices.ndjson"
}

run() { # label checkout root
  sync
  echo 1 > /proc/sys/vm/drop_caches
  sleep 3
  local out times phases
  out=$(CATALOG_COMPILE_TIMINGS=1 /usr/bin/time -f "__T %e %U %S %M" node "$2/bin/catalog.js" compile --source "$catalog" --out "$3" 2>&1) || {
    echo "$out" | tail -5 >&2
    echo "bench-incremental-ab: the compile of $1 failed" >&2
    exit 1
  }
  times=$(echo "$out" | grep '^__T' | cut -d' ' -f2-)
  # "phase cards and figures: 17.17 s wall, ..." -> "cards and figures 17.17"
  phases=$(echo "$out" | grep '^phase ' | sed -E 's/^phase ([^:]+): ([0-9.]+) s wall.*/\1 \2/' | paste -sd';' | sed 's/;/; /g')
  echo "$(date -u +%H:%M:%S) $1 wall/user/sys s, peak KB: $times | $phases"
}

for r in $(seq 1 "$rounds"); do
  switch_prices
  if [ $((r % 2)) -eq 1 ]; then
    run A "$base" "$base_root"
    run B . "$root"
  else
    run B . "$root"
    run A "$base" "$base_root"
  fi
done
