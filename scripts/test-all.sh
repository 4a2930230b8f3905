#!/usr/bin/env bash
# `npm test`: every check and every test, arranged for a machine of two cores.
#
#   1. what the tests need from Debian's packages (scripts/test-machine.sh);
#   2. the typecheck beside the build (the browser suites load dist/);
#   3. vitest, with lint (ESLint with types, Prettier, knip, cycles) beside it at the lowest CPU
#      priority: the tests keep both cores busy until the last suites, which run one at a time,
#      and lint takes what they leave. Its output is printed after the tests'.
#
# Arguments go to vitest (.ci/run adds its reporters). Fails when any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# The pinned Node and the tools, as npm scripts see them.
export PATH="$PWD/node_modules/.bin:$PATH"

scripts/test-machine.sh full

npm run --silent typecheck &
typecheck=$!
build_ok=0
npm run --silent build || build_ok=$?
typecheck_ok=0
wait "$typecheck" || typecheck_ok=$?
[ "$build_ok" -eq 0 ] && [ "$typecheck_ok" -eq 0 ] || { echo "typecheck or build failed" >&2; exit 1; }

lint_log="$(mktemp)"
trap 'rm -f "$lint_log"' EXIT
nice -n 19 npm run --silent lint >"$lint_log" 2>&1 &
lint=$!

status=0
vitest run "$@" || status=$?
if wait "$lint"; then
  echo "lint: passed"
else
  echo "lint failed:" >&2
  cat "$lint_log" >&2
  status=1
fi
exit "$status"
