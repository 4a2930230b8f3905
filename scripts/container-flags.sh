#!/usr/bin/env bash
# The flags every container the tests run is given (test/support/image-check.ts,
# scripts/quick-tier-in-container.sh), on one line: runc, and resource limits within this
# process's own hard limits. podman's default RLIMIT_NOFILE (1048576) is refused where the session
# lacks CAP_SYS_RESOURCE, crun refuses hybrid cgroups, and runc's setrlimit of NPROC is refused
# above kernel.pid_max. CONTAINER_FLAGS, when set, replaces them (docs/operations/deploy.md).
set -euo pipefail

if [ -n "${CONTAINER_FLAGS+set}" ]; then
  echo "$CONTAINER_FLAGS"
  exit 0
fi

# The hard limit of /proc/self/limits' line `name` (capped at 1048576), or `fallback` when unlimited.
hard_limit() {
  awk -v name="$1" -v fallback="$2" 'index($0, name) == 1 {
    hard = $(NF - 1)
    if (hard !~ /^[0-9]+$/) hard = fallback
    print (hard > 1048576 ? 1048576 : hard)
  }' /proc/self/limits
}

files="$(hard_limit 'Max open files' 20000)"
processes="$(hard_limit 'Max processes' 32768)"
pid_max="$(cat /proc/sys/kernel/pid_max)"
[ "$processes" -gt "$pid_max" ] && processes="$pid_max"
echo "--runtime runc --ulimit nofile=$files:$files --ulimit nproc=$processes:$processes"
