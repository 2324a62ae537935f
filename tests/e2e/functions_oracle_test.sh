#!/usr/bin/env bash
# End-to-end: the deterministic functions this table lists answer as Terraform's do. Each
# line is evaluated by `strata console` and, when a `terraform` binary is on PATH (Terraform
# 1.11, the oracle), by `terraform console` in an empty directory; both answers must match
# the recorded one after `=>`. All lines go to each tool as one jsonencode([...]) call, so
# Terraform starts once (its console prints only the last line's value).
source "$(dirname "$0")/lib.sh"

table=$(cat <<'TABLE'
formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z") => "02 Jan 2018 23:12 UTC"
formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z") => "Tuesday, 02-Jan-18 23:12:01 UTC"
formatdate("EEE, DD MMM YYYY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00") => "Tue, 02 Jan 2018 23:12:01 -0800"
formatdate("MMM DD, YYYY", "2018-01-02T23:12:01Z") => "Jan 02, 2018"
formatdate("HH:mmaa", "2018-01-02T23:12:01Z") => "11:12pm"
formatdate("M/D/YY H:m:s AA MMMM", "2018-01-02T03:04:05Z") => "1/2/18 3:4:5 AM January"
formatdate("Z ZZZZ ZZZZZ ZZZ", "2018-01-02T23:12:01+05:30") => "+05:30 +0530 +05:30 +0530"
formatdate("'o''clock' h", "2018-01-02T23:12:01Z") => "o'clock 23"
timeadd("2017-11-22T00:00:00Z", "10m") => "2017-11-22T00:10:00Z"
timeadd("2017-11-22T00:00:00Z", "-1h30m") => "2017-11-21T22:30:00Z"
timeadd("2017-11-22T00:00:00+05:00", "1.5h") => "2017-11-22T01:30:00+05:00"
timeadd("2024-02-28T23:00:00Z", "24h") => "2024-02-29T23:00:00Z"
timeadd("2017-11-22T00:00:00.5Z", "0.5s") => "2017-11-22T00:00:01Z"
timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00-01:00") => 0
timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z") => -1
base64gzip("test") => "H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"
base64gzip("hello world") => "H4sIAAAAAAAA/8pIzcnJVyjPL8pJAQAAAP//AQAA//+FEUoNCwAAAA=="
textencodebase64("Hello World", "UTF-16LE") => "SABlAGwAbABvACAAVwBvAHIAbABkAA=="
textencodebase64("Hi", "UTF-16") => "/v8ASABp"
textencodebase64("€", "windows-1252") => "gA=="
textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE") => "Hello World"
textdecodebase64("gqA=", "Shift_JIS") => "あ"
length("👨‍👩‍👧") => 1
length("🇺🇸🇫🇷") => 2
length("\r\n") => 1
substr("🇺🇸🇫🇷🇩🇪", 1, 1) => "🇫🇷"
substr("hello world", -5, -1) => "world"
strrev("x🇺🇸") => "🇺🇸x"
format("%-4s|", "🇺🇸") => "🇺🇸   |"
length(uuid()) => 36
substr(bcrypt("x", 4), 0, 7) => "$2a$04$"
ephemeralasnull({a = 1}) => {"a":1}
TABLE
)

exprs=()
expected=()
while IFS= read -r line; do
  exprs+=("${line%% => *}")
  expected+=("${line##* => }")
done <<<"$table"
joined=$(IFS=,; echo "${exprs[*]}")
query="jsonencode([$joined])"
want="[$(IFS=,; echo "${expected[*]}")]"

# The console shows the JSON text as a quoted string; compare the JSON values themselves.
decode() { python3 -c 'import json,sys; t=sys.stdin.read().strip(); print(json.dumps(json.loads(json.loads(t)), ensure_ascii=False))'; }
canonical() { python3 -c 'import json,sys; print(json.dumps(json.loads(sys.stdin.read()), ensure_ascii=False))'; }
want=$(canonical <<<"$want")

mkdir -p "$work/empty"
printf '%s\n' "$query" >"$work/query"
if run "strata console" 0 bash -c "cd '$work/empty' && '$STRATA' console <'$work/query'"; then
  got=$(decode <<<"$out")
  if [ "$got" = "$want" ]; then pass "strata answers the table"; else fail "strata: $got, expected $want"; fi
fi

if command -v terraform >/dev/null; then
  if run "terraform console" 0 bash -c "cd '$work/empty' && TF_CLI_CONFIG_FILE=/dev/null terraform console -no-color <'$work/query'"; then
    got=$(decode <<<"$out")
    if [ "$got" = "$want" ]; then pass "terraform answers the table"; else fail "terraform: $got, expected $want"; fi
  fi
else
  echo "skip terraform console (no terraform on PATH)"
fi
finish
