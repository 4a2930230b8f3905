#!/usr/bin/env bash
# Runs a command on what the tests leave of the CPU: `scripts/when-idle.sh CMD [ARGS…]`.
#
# `nice` alone is not enough. With the kernel's autogroups (on by default), niceness only orders
# processes of one session; each session shares the CPU equally with the others. A container's
# processes start sessions of their own, so `nice podman build` ran its `RUN` steps (npm ci, the
# build, apt) at an equal share with the whole test run, and took a fifth of its CPU.
#
# A cgroup marked idle (cpu.idle; the minimum cpu.shares where the kernel has no cpu.idle) holds
# the command and everything it starts, containers included (runc makes their cgroups inside it),
# and is given the CPU only when nothing else wants it. Needs root and a cpu controller it can
# write (cgroup v1's, or v2's with cpu enabled below the root); elsewhere the command runs niced
# only, and says so on stderr. docs/decisions/049.
set -euo pipefail

group=mingtong-idle

into_idle_group() {
  local dir
  if [ -d /sys/fs/cgroup/cpu ] && [ -w /sys/fs/cgroup/cpu ]; then
    dir=/sys/fs/cgroup/cpu/$group
  elif [ -f /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    dir=/sys/fs/cgroup/$group
  else
    return 1
  fi
  mkdir -p "$dir" 2>/dev/null || return 1
  if [ -f "$dir/cpu.idle" ]; then
    echo 1 >"$dir/cpu.idle" 2>/dev/null || return 1
  else
    echo 2 >"$dir/cpu.shares" 2>/dev/null || return 1
  fi
  echo $$ >"$dir/cgroup.procs" 2>/dev/null
}

if ! into_idle_group; then
  echo "when-idle: no idle cgroup here (not root, or no writable cpu controller); running niced only: $*" >&2
fi
exec nice -n 19 "$@"
