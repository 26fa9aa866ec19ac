#!/usr/bin/env bash
# Runs the Firebolt store against a real Firebolt Core in Docker: starts Core's public image,
# waits until it answers, runs `fml firebolt check`, the live MemoryStore contract suite
# (test/firebolt/live.test.ts) and the LoCoMo quality benchmark, then stops Core and removes
# its data volume.
#
#   scripts/firebolt-core-live.sh            # everything
#   SKIP_QUALITY=1 scripts/firebolt-core-live.sh
#
# Environment: FIREBOLT_CORE_IMAGE (default ghcr.io/firebolt-db/firebolt-core:preview-rc, the
# image the Node SDK's CI uses; ghcr.io/firebolt-db/engine:dev is the newer one and gets
# FIREBOLT_CORE_MODE=1), FIREBOLT_CORE_PORT (default 3473), FIREBOLT_DATABASE (default
# fml_live_<time>), READY_TIMEOUT_SECONDS (default 180).
# Needs: Docker, Linux kernel >= 6.1 (Core uses io_uring), ~16 GB RAM, curl, and `npm ci` done.
# Docker flags follow Firebolt Core's README and firebolt-node-sdk
# .github/actions/setup-firebolt-core/action.yml.
set -euo pipefail

cd "$(dirname "$0")/.."
IMAGE="${FIREBOLT_CORE_IMAGE:-ghcr.io/firebolt-db/firebolt-core:preview-rc}"
PORT="${FIREBOLT_CORE_PORT:-3473}"
URL="http://127.0.0.1:${PORT}"
DATABASE="${FIREBOLT_DATABASE:-fml_live_$(date +%s)}"
READY_TIMEOUT_SECONDS="${READY_TIMEOUT_SECONDS:-180}"
NAME="fml-firebolt-core-$$"
VOLUME="fml-firebolt-core-data-$$"
NODE="node_modules/.bin/node"

command -v docker >/dev/null || { echo "docker is required" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is required" >&2; exit 2; }
[ -x "$NODE" ] || { echo "run 'node scripts/ensure-ready.mjs' (or npm ci) first" >&2; exit 2; }

cleanup() {
  echo "[live] stopping Firebolt Core"
  docker stop "$NAME" >/dev/null 2>&1 || true
  docker volume rm "$VOLUME" >/dev/null 2>&1 || true
}
trap cleanup EXIT

extra_env=()
case "$IMAGE" in
  *engine:*) extra_env=(-e FIREBOLT_CORE_MODE=1) ;;
esac

echo "[live] starting $IMAGE on $URL"
# A named volume instead of a bind mount: Core runs as uid 1111 and owns its files there.
docker volume create "$VOLUME" >/dev/null
docker run -d --rm --name "$NAME" "${extra_env[@]}" \
  --ulimit memlock=8589934592:8589934592 \
  --security-opt seccomp=unconfined \
  -p "127.0.0.1:${PORT}:3473" \
  -v "${VOLUME}:/firebolt-core/volume" \
  "$IMAGE" >/dev/null

echo "[live] waiting for Core to answer SELECT 1 (up to ${READY_TIMEOUT_SECONDS}s)"
deadline=$((SECONDS + READY_TIMEOUT_SECONDS))
until [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${URL}/" --data-binary 'SELECT 1' || true)" = "200" ]; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "[live] Core did not become ready; container log:" >&2
    docker logs "$NAME" >&2 || true
    exit 1
  fi
  docker inspect "$NAME" >/dev/null 2>&1 || { echo "[live] the Core container exited" >&2; exit 1; }
  sleep 2
done

export FIREBOLT_CORE_URL="$URL" FIREBOLT_DATABASE="$DATABASE"
status=0

echo "[live] fml firebolt check"
"$NODE" src/cli/main.ts firebolt check --backend firebolt-core || status=1

echo "[live] MemoryStore contract against Core (database $DATABASE)"
"$NODE" --test test/firebolt/live.test.ts || status=1

if [ -z "${SKIP_QUALITY:-}" ]; then
  echo "[live] LoCoMo quality benchmark against Core"
  "$NODE" bench/quality.ts --backend firebolt-core --firebolt-url "$URL" || status=1
fi

echo "[live] done (exit $status)"
exit "$status"
