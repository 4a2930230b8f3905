#!/usr/bin/env bash
# The README's quick tier on a fresh Debian with nothing but Node and npm: a clean clone of this
# repository's HEAD, copied into a node:26-bookworm-slim container (podman, as root), where
# `npm ci && npm run test:quick` must install what it lacks (fontconfig, fonts-noto-cjk, through
# scripts/test-machine.sh) and pass. Needs network for the npm registry and Debian's mirror.
#
#   scripts/quick-tier-in-container.sh [image]    # default: docker.io/library/node:26-bookworm-slim
set -euo pipefail

image="${1:-docker.io/library/node:26-bookworm-slim}"
root="$(git rev-parse --show-toplevel)"
clone="$(mktemp -d)"
trap 'rm -rf "$clone"' EXIT
git clone --quiet "$root" "$clone/src"

# runc, and limits the kernel grants (scripts/container-flags.sh).
read -ra flags <<<"$("$root/scripts/container-flags.sh")"

podman run --rm "${flags[@]}" \
  --network host -v "$clone/src:/src:ro" "$image" \
  bash -c 'cp -a /src /w && cd /w && npm ci --no-audit --no-fund && npm run test:quick'
