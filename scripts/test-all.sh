#!/usr/bin/env bash
# `npm test`: every check and every test, arranged for a machine of two cores.
#
#   1. what the tests need from Debian's packages (scripts/test-machine.sh);
#   2. the build (the browser suites load dist/);
#   3. vitest, with the typecheck and lint (ESLint with types, Prettier, knip, cycles) beside it on
#      the CPU the tests leave (scripts/when-idle.sh): the tests keep both cores busy until the
#      last suites, which run one at a time, and the checks take what they leave. Their output is
#      printed after the tests'.
#
# Arguments go to vitest (.ci/run adds its reporters). Fails when any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# The pinned Node and the tools, as npm scripts see them.
export PATH="$PWD/node_modules/.bin:$PATH"

scripts/test-machine.sh full
npm run --silent build

checks_log="$(mktemp)"
trap 'rm -f "$checks_log"' EXIT
scripts/when-idle.sh bash -c 'npm run --silent typecheck && npm run --silent lint' >"$checks_log" 2>&1 &
checks=$!

status=0
vitest run "$@" || status=$?
if wait "$checks"; then
  echo "typecheck and lint: passed"
else
  echo "typecheck or lint failed:" >&2
  cat "$checks_log" >&2
  status=1
fi
exit "$status"
