#!/usr/bin/env bash
# Configures and builds one build tree: scripts/build.sh DIR [cmake args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$1  # relative to the checkout, or absolute
shift
case $dir in /*) ;; *) dir="$root/$dir" ;; esac
jobs=${STRATA_JOBS:-$(nproc)}
# One compiler cache for every checkout and build tree on the machine: paths are hashed
# relative to the checkout, so a fresh clone (CI) or a second tree reuses what was built.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
# STRATA_CONFIGURE_ONLY=1: configure and stop (the scripts' own test uses it).
[ "${STRATA_CONFIGURE_ONLY:-0}" = 1 ] && exit 0
ninja -C "$dir" -j"$jobs"
