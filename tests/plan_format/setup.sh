# Sourced by the compare_*_with_terraform.sh scripts, after they set `root` (the checkout)
# and with their OUTDIR argument (may be empty): checks that terraform and python3 are
# there (exit 77, ctest's "skip", with a loud message when terraform is not; 2 without
# python3), makes `work` (a temp dir removed on exit) and `out` (OUTDIR, or one inside
# work), sets Terraform's automation environment, and copies a runnable Strata binary to
# `strata` (STRATA, default build/strata; a concurrent build may be relinking it, so it
# waits up to 5 minutes). `fail STEP LOG` reports a step that failed and exits 2.
if ! command -v terraform >/dev/null 2>&1; then
  echo "SKIPPED: terraform is not installed; the comparison with Terraform ($(basename "$0")) did not run." >&2
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "ERROR: python3 is needed for the comparison." >&2
  exit 2
fi

work=$(mktemp -d)
out=${1:-$work/out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
trap 'rm -rf "$work"' EXIT
export TF_IN_AUTOMATION=1 TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1

strata_src=${STRATA:-$root/build/strata}
strata="$work/strata"
for attempt in $(seq 1 60); do
  if [ -x "$strata_src" ] && cp "$strata_src" "$strata" 2>/dev/null &&
     "$strata" version >/dev/null 2>&1; then
    break
  fi
  rm -f "$strata"
  [ "$attempt" = 60 ] && { echo "ERROR: no runnable Strata binary at $strata_src (waited 5 min)." >&2; exit 2; }
  sleep 5
done

fail() { echo "ERROR: $1 failed; its output:" >&2; cat "$2" >&2; exit 2; }
