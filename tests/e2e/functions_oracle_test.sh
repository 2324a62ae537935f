#!/usr/bin/env bash
# End-to-end: the deterministic functions this table lists answer as Terraform's do. Each
# line is evaluated by `strata console` and, when a `terraform` binary is on PATH (Terraform
# 1.11, the oracle), by `terraform console` in an empty directory; both answers must match
# the recorded one after `=>`. All lines go to each tool as one jsonencode([...]) call, so
# Terraform starts once (its console prints only the last line's value). The numbers part
# checks Terraform's precision (512-bit floats: 1e+500, 0.1 + 0.2, integers past 2^53);
# results that are not whole go through tostring, so the JSON comparison stays exact.
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
tostring(1e+500 + 1) == "1${join("", [for i in range(500) : "0"])}" => true
tostring(sum([1e+500, 1])) == tostring(1e+500) => true
length(tostring(1e+500 * 10)) => 502
tostring(-1e+500 - 1e+500) == "-2${join("", [for i in range(500) : "0"])}" => true
tostring(1e-500) == "0.${join("", [for i in range(499) : "0"])}1" => true
9007199254740993 + 0 => 9007199254740993
tostring(9007199254740993 + 0) => "9007199254740993"
9007199254740993 - 9007199254740992 => 1
9007199254740993 == 9007199254740992 => false
9007199254740993 > 9007199254740992 => true
123456789012345678901234567890 * 10 => 1234567890123456789012345678900
123456789012345678901234567890 % 1000 => 890
floor(123456789012345678901234567890.5) => 123456789012345678901234567890
tostring(10000000000000000000000 / 3) => "3333333333333333333333.3333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333332"
tostring(1 / 3) => "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335"
(1 / 3) * 3 => 1
2 / 3 * 3 => 2
tostring(0.1 + 0.2) => "0.3"
0.1 + 0.2 == 0.3 => true
tostring(sum([0.1, 0.2])) => "0.3"
0.1 == tonumber("0.1") => true
tostring(5 + pow(2, 0.5)) => "6.4142135623730951454746218587388284504413604736328125"
tostring(pow(2, 0.5)) => "1.4142135623730951"
-7 % 3 => -1
tostring(7.5 % 2) => "1.5"
1e+500 % 7 => 0
tostring(1e21) => "1000000000000000000000"
tostring(1e-7) => "0.0000001"
parseint("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 16) => 2582249878086908589655919172003011874329705792829223512830659356540647622016841194629645353280137831435903171972747493375
tostring(parseint("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 16)) => "2582249878086908589655919172003011874329705792829223512830659356540647622016841194629645353280137831435903171972747493375"
parseint("-ff", 16) => -255
max(9007199254740993, 9007199254740992) => 9007199254740993
min(9007199254740993, 9007199254740994) => 9007199254740993
abs(-9007199254740993) => 9007199254740993
ceil(-2.5) => -2
floor(-0.5) => -1
jsonencode(9007199254740993) => "9007199254740993"
jsonencode(0.1) => "0.1"
jsonencode([1e21, 0.5]) => "[1000000000000000000000,0.5]"
jsonencode(1e+500) == "1${join("", [for i in range(500) : "0"])}" => true
jsondecode("9007199254740993") + 0 => 9007199254740993
tostring(jsondecode("[0.1]")[0] + 0.2) => "0.3"
tostring(jsondecode("12345678901234567890123")) => "12345678901234567890123"
tostring(jsondecode("[0.333333333333333333333333]")[0] * 3) => "0.999999999999999999999999"
tostring(tonumber("12345678901234567890123") + 1) => "12345678901234567890124"
tostring(yamldecode("12345678901234567890123")) => "12345678901234567890123"
yamldecode("b: &b {a: 1}\nc: {<<: *b, d: 2}\nw: {<<: {a: 2}, a: 1}\nx: {a: 1, <<: {a: 2, e: 2}}") => {"b":{"a":1},"c":{"a":1,"d":2},"w":{"a":1},"x":{"a":2,"e":2}}
yamlencode([9007199254740993]) => "- 9007199254740993\n"
yamlencode(1) => "1\n...\n"
yamlencode(null) => "null\n...\n"
yamlencode(true) => "true\n...\n"
yamlencode("x") => "\"x\"\n"
format("%d", 9007199254740993) => "9007199254740993"
format("%d", 123456789012345678901234567890) => "123456789012345678901234567890"
format("%x", 1e+30) => "c9f2c9cd04674edea40000000"
format("%f", 1e+30) => "1000000000000000000000000000000.000000"
format("%.3f", 1 / 3) => "0.333"
format("%f", 0.1 + 0.2) => "0.300000"
format("%v", 0.1 + 0.2) => "0.3"
formatlist("%d", [9007199254740993]) => ["9007199254740993"]
"${9007199254740993}" => 9007199254740993
range(9007199254740993, 9007199254740996) => [9007199254740993, 9007199254740994, 9007199254740995]
[for v in range(0, 1, 0.25) : tostring(v)] => ["0", "0.25", "0.5", "0.75"]
[for v in range(0, 0.5, 0.1) : tostring(v)] => ["0", "0.1", "0.2", "0.3", "0.4"]
toset([1, 1.0, 9007199254740993, 9007199254740992]) => [1, 9007199254740992, 9007199254740993]
[10, 20, 30][2] => 30
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
