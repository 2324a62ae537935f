#!/usr/bin/env bash
# End-to-end: file modes. local_file's file_permission / directory_permission under the
# umask, as Terraform's hashicorp/local; the state database, saved plans and the sandbox's
# world private (0600) whatever the umask; a wider state file tightened by the next command
# that writes; and a state that cannot be written (a 0400 file, a read-only directory) still
# read by `state list`, `state show` and `output`.
source "$(dirname "$0")/lib.sh"
mode() { stat -c %a "$1" 2>/dev/null || echo missing; }
expect_mode() { # NAME FILE MODE
  local got
  got=$(mode "$2")
  if [ "$got" = "$3" ]; then pass "$1"; else fail "$1: $2 has mode $got, expected $3"; fi
}

p="$work/p"
mkdir -p "$p/app"
cat >"$p/strata.yaml" <<'YAML'
project: modes
stages:
  - { name: app, path: app }
YAML
cat >"$p/app/main.yaml" <<'YAML'
resources:
  open:
    type: local_file
    properties: { filename: out/open.txt, content: a }
  tight:
    type: local_file
    properties: { filename: tight/deep/tight.txt, content: b, file_permission: "0640", directory_permission: "0750" }
  secret:
    type: local_sensitive_file
    properties: { filename: secret/key.txt, content: c }
outputs:
  file: { value: "${open.filename}" }
YAML
cd "$p" || exit 1

# --- local_file under the umask, as Terraform -----------------------------------------------
umask 022
run apply 0 "$STRATA" apply -auto-approve
expect_mode "default 0777 less umask 022" out/open.txt 755
expect_mode "directories too" out 755
expect_mode "file_permission 0640" tight/deep/tight.txt 640
expect_mode "directory_permission 0750, each level made" tight/deep 750
expect_mode "directory_permission 0750, the top one too" tight 750
expect_mode "local_sensitive_file defaults to 0700" secret/key.txt 700
expect_mode "and so does its directory" secret 700
run plan-after-apply 0 "$STRATA" plan -detailed-exitcode && pass "the umask's missing bits are no drift"
chmod 666 tight/deep/tight.txt
run plan-widened 2 "$STRATA" plan -detailed-exitcode -no-color &&
  expect "a bit file_permission does not grant is drift that replaces" "$out" '"0666" -> "0640" # forces replacement'
chmod 640 tight/deep/tight.txt
open_properties() { sed -i "s|filename: out/open.txt, content: a.*|filename: out/open.txt, content: a$1 }|" app/main.yaml; }
open_properties ', file_permission: "600"'
run plan-permission-change 2 "$STRATA" plan -detailed-exitcode -no-color &&
  expect "changing file_permission forces replacement" "$out" '"0777" -> "600" # forces replacement'
open_properties ', directory_permission: "9999"'
run invalid-permission 1 "$STRATA" plan -no-color &&
  expect "an invalid permission names the attribute" "$err" 'directory_permission = "9999" is not a permission'
open_properties ''
run plan-restored 0 "$STRATA" plan -detailed-exitcode

# --- private files whatever the umask -----------------------------------------------------
umask 000
expect_mode "the state database is 0600" .strata/state.db 600
run plan-out 0 "$STRATA" plan -out saved.plan -detailed-exitcode
expect_mode "a saved plan is 0600" saved.plan 600
run sandbox-plan 0 "$STRATA" plan -sandbox -detailed-exitcode
expect_mode "the sandbox's world is 0600" .strata/sandbox.db 600
chmod 644 .strata/state.db
run list-wide 0 "$STRATA" state list
expect_mode "a read-only command leaves the file alone" .strata/state.db 644
run plan-tightens 0 "$STRATA" plan -detailed-exitcode
expect_mode "a command that writes tightens it" .strata/state.db 600
umask 022

# --- a state that cannot be written still serves the reading commands ---------------------
# Root ignores file modes: read as nobody then (with files nobody owns), else as ourselves.
reader=()
if [ "$(id -u)" = 0 ]; then
  if ! command -v setpriv >/dev/null; then
    echo "skip read-only state checks: running as root without setpriv"
    finish
    exit
  fi
  chmod 755 "$work"
  chown -R nobody:nogroup "$p"
  reader=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
check_reads() { # LABEL
  run "list $1" 0 "${reader[@]}" "$STRATA" state list && expect "state list, $1" "$out" "local_file.open"
  run "show $1" 0 "${reader[@]}" "$STRATA" state show local_file.open &&
    expect "state show, $1" "$out" 'resource "local_file" "open"'
  run "output $1" 0 "${reader[@]}" "$STRATA" output -raw file && expect "output, $1" "$out" "out/open.txt"
}
chmod 400 .strata/state.db
chmod 555 .strata
check_reads "read-only file and directory"
run apply-read-only 1 "${reader[@]}" "$STRATA" apply -auto-approve &&
  expect "a command that writes says why it cannot" "$err" "cannot be written"
chmod 755 .strata
check_reads "read-only file in a writable directory"
chmod 600 .strata/state.db
run plan-writable-again 0 "${reader[@]}" "$STRATA" plan -detailed-exitcode &&
  pass "once writable again, the state takes writes (no read-only leftovers)"
finish
