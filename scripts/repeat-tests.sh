#!/usr/bin/env bash
# Runs the whole suite N times in a row (default 10) on a fresh clone of this repository's HEAD,
# the way CI does: run 1 is CI's own entry point (.ci/run: installs everything, then the README's
# test command), runs 2..N the README's test command with every suite required. Stops at the first
# red run. One line a run (exit code, seconds, load average, the runner's totals) goes to
# stdout; each run's full output to <dir>/run-<i>.txt.
#
#   bash scripts/repeat-tests.sh [N] [dir]        # dir defaults to a new temporary directory
set -u
runs=${1:-10}
out=${2:-$(mktemp -d -t fml-repeat-XXXXXX)}
source_repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
clone="$out/clone"
mkdir -p "$out"
git clone -q "$source_repo" "$clone" || exit 2
# shared/ (the seeds and evaluation data) sits beside a checkout; the clone needs it beside it too.
[ -e "$out/shared" ] || ln -s "$(dirname "$source_repo")/shared" "$out/shared"
cd "$clone" || exit 2
echo "commit $(git rev-parse --short HEAD), $runs runs, output in $out"
for i in $(seq 1 "$runs"); do
  started=$(date +%s)
  if [ "$i" -eq 1 ]; then
    CI=true bash .ci/run >"$out/run-$i.txt" 2>&1
  else
    CI=true FML_REQUIRE_ALL_SUITES=1 npm test >"$out/run-$i.txt" 2>&1
  fi
  status=$?
  totals=$(grep -E '^ℹ (tests|pass|fail|skipped) ' "$out/run-$i.txt" | tr '\n' ' ')
  echo "run $i: exit $status, $(($(date +%s) - started)) s, load $(cut -d' ' -f1-3 /proc/loadavg), $totals"
  if [ "$status" -ne 0 ]; then
    echo "run $i failed: $out/run-$i.txt"
    exit 1
  fi
done
echo "$runs of $runs green in a row"
