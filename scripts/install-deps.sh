#!/usr/bin/env bash
# Installs the Debian packages Strata builds and tests with; skips what is already there.
set -euo pipefail
packages=(build-essential cmake ninja-build ccache pkg-config clang libclang-rt-14-dev
  libyaml-cpp-dev libyaml-dev libre2-dev nlohmann-json3-dev libcli11-dev libfmt-dev libsqlite3-dev sqlite3 libpq-dev postgresql
  libssl-dev libcrypt-dev zlib1g-dev libicu-dev libcurl4-openssl-dev libpugixml-dev libgmp-dev libmpfr-dev libgtest-dev libgmock-dev libbenchmark-dev
  libcpp-httplib-dev python3 curl)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The sandbox's AWS CLI test needs an `aws`: the machine image's (pip) one, else Debian's.
command -v aws >/dev/null 2>&1 || missing+=(awscli)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
