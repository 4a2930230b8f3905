#!/usr/bin/env bash
# What the tests need from Debian's packages, checked before any test runs (the first step of
# `npm test` and `npm run test:quick`). As root (CI, a container) the missing packages are
# installed; otherwise it stops at once with the one `apt-get install` line that would install
# them, rather than letting a hundred tests fail one by one.
#
#   scripts/test-machine.sh full    # every test (npm test)
#   scripts/test-machine.sh quick   # the quick tier (npm run test:quick): units and loopback HTTP
set -euo pipefail

tier="${1:-full}"
case "$tier" in
  full | quick) ;;
  *) echo "usage: $0 full|quick" >&2; exit 2 ;;
esac

need=()
# The quick tier starts the service and loopback servers only: Node and the npm packages suffice,
# but share cards and page tests draw Chinese text, which needs a CJK font known to fontconfig.
command -v fc-list >/dev/null || need+=(fontconfig)
# (grep reads to the end: with -q it would stop at the first match, fc-list would die of SIGPIPE,
# and pipefail would take the font for missing.)
fc-list 2>/dev/null | grep -i 'noto.*cjk' >/dev/null || need+=(fonts-noto-cjk)
if [ "$tier" = full ]; then
  # Chromium (browser suites), redis-server (the shared cache tier), varnish and varnish-modules
  # (the edge and its xkey purges), prometheus (promtool and a real scrape), docker-compose
  # (validates deploy/compose.yaml without a daemon), podman with runc, debootstrap and iptables
  # (test/deploy.test.ts builds and runs the image: runc because crun cannot run containers on a
  # machine with hybrid cgroups; debootstrap makes the base image where Docker Hub cannot be
  # reached; iptables publishes the container's ports).
  [ -x /usr/bin/chromium ] || need+=(chromium)
  command -v redis-server >/dev/null || need+=(redis-server)
  command -v varnishd >/dev/null || [ -x /usr/sbin/varnishd ] || need+=(varnish)
  ls /usr/lib/*/varnish/vmods/libvmod_xkey.so >/dev/null 2>&1 || need+=(varnish-modules)
  command -v promtool >/dev/null || need+=(prometheus)
  command -v docker-compose >/dev/null || need+=(docker-compose)
  command -v podman >/dev/null || need+=(podman)
  [ -x /usr/sbin/runc ] || need+=(runc)
  [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
  [ -x /usr/sbin/iptables ] || need+=(iptables)
fi

[ "${#need[@]}" -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${need[*]}"
if [ "$(id -u)" != 0 ]; then
  echo "The $tier tests need Debian packages this machine lacks. Install them (as root), then run the tests again:" >&2
  echo "  sudo $line" >&2
  exit 1
fi
echo "Installing what the $tier tests need: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
