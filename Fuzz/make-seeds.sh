#!/usr/bin/env bash
# Writes Fuzz/corpus/<target>/*: the committed seed inputs of the fuzz targets (scripts/fuzz.sh). Deterministic;
# needs python3, cjpeg and jpegtran (libjpeg-turbo-progs). Small on purpose: a fuzzer runs faster on small
# inputs, and every shape here is one the parsers must handle.
set -euo pipefail
cd "$(dirname "$0")/.."
SCANS=Fixtures/tools/scans  # the scan scripts the progressive fixtures use too
OUT=Fuzz/corpus
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT"/{progressive,jpeg-structure,exif,search-page,problem,dotenv,thumbnail,cache-files,tweets-lookup,usage-tweets}

# Pictures: gradients and a disc, small (fuzzing speed) and at odd sizes (partial MCUs).
python3 - "$TMP" <<'PY'
import math, sys
def picture(path, width, height, grey=False):
    rows = []
    for y in range(height):
        for x in range(width):
            disc = (x - width / 2) ** 2 + (y - height / 2) ** 2 < (min(width, height) / 3) ** 2
            r = 230 if disc else int(255 * x / max(width - 1, 1))
            g = 40 if disc else int(255 * y / max(height - 1, 1))
            b = int(127 + 100 * math.sin(x / 3.0) * math.cos(y / 2.0))
            rows.append(bytes([(r + g + b) // 3]) if grey else bytes([r, g, b]))
    header = b"P5" if grey else b"P6"
    with open(path, "wb") as f:
        f.write(header + b"\n%d %d\n255\n" % (width, height) + b"".join(rows))
picture(sys.argv[1] + "/even.ppm", 32, 16)
picture(sys.argv[1] + "/odd.ppm", 27, 13)
picture(sys.argv[1] + "/tiny.ppm", 1, 1)
picture(sys.argv[1] + "/tall.ppm", 9, 40)
picture(sys.argv[1] + "/grey.pgm", 24, 17, grey=True)
PY


P="$OUT/progressive"
cjpeg -quality 75 -sample 2x2 -progressive "$TMP/even.ppm" > "$P/420.jpg"
cjpeg -quality 75 -sample 1x1 -progressive "$TMP/even.ppm" > "$P/444.jpg"
cjpeg -quality 75 -sample 2x1 -progressive -restart 1B "$TMP/odd.ppm" > "$P/422-restart-odd.jpg"
cjpeg -quality 75 -sample 1x2 -progressive "$TMP/odd.ppm" > "$P/440-odd.jpg"
cjpeg -quality 75 -sample 4x1 -progressive "$TMP/tall.ppm" > "$P/411-tall.jpg"
cjpeg -quality 75 -sample 2x2 -progressive -restart 2B "$TMP/tiny.ppm" > "$P/420-1x1-restart.jpg"
cjpeg -quality 75 -sample 1x1 -scans "$SCANS/spectral.txt" "$TMP/even.ppm" > "$P/spectral-only-444.jpg"
cjpeg -quality 75 -sample 2x2 -scans "$SCANS/dc-per-component.txt" "$TMP/odd.ppm" > "$P/dc-per-component-420.jpg"
cjpeg -quality 75 -sample 2x2 -restart 1B -scans "$SCANS/dc-per-component.txt" "$TMP/odd.ppm" \
  > "$P/dc-per-component-420-restart.jpg"
cjpeg -quality 75 -grayscale -progressive "$TMP/grey.pgm" > "$P/grey.jpg"
cjpeg -quality 75 -grayscale -progressive -restart 1B "$TMP/grey.pgm" > "$P/grey-restart.jpg"
cjpeg -quality 100 -sample 2x2 -progressive "$TMP/odd.ppm" > "$P/420-q100.jpg"
cjpeg -quality 20 -sample 2x2 -progressive -optimize "$TMP/even.ppm" > "$P/420-q20-optimized.jpg"

S="$OUT/jpeg-structure"
cjpeg -quality 75 -sample 2x2 "$TMP/even.ppm" > "$S/baseline-420.jpg"
cjpeg -quality 75 -sample 1x1 -restart 1B "$TMP/odd.ppm" > "$S/baseline-444-restart.jpg"
cjpeg -quality 75 -grayscale "$TMP/grey.pgm" > "$S/baseline-grey.jpg"
cjpeg -quality 75 -sample 2x2 -arithmetic "$TMP/even.ppm" > "$S/arithmetic.jpg"
cjpeg -quality 75 -sample 2x2 -progressive -arithmetic "$TMP/even.ppm" > "$S/progressive-arithmetic.jpg"
cjpeg -quality 75 -rgb "$TMP/even.ppm" > "$S/rgb.jpg"
cjpeg -quality 75 -sample 2x2 -scans "$SCANS/spectral.txt" -restart 1B "$TMP/even.ppm" > "$S/progressive-restart.jpg"
cjpeg -quality 75 -sample 2x2 -progressive "$TMP/tiny.ppm" > "$S/progressive-1x1.jpg"
jpegtran -copy none -progressive "$S/baseline-grey.jpg" > "$S/jpegtran-progressive-grey.jpg"
head -c 300 "$P/420.jpg" > "$S/truncated.jpg"
# A JPEG with an EXIF orientation for each value, in both byte orders (APP1 written by hand, below).

# EXIF APP1 payloads (`Exif\0\0` + TIFF), and the same inside JPEGs.
python3 - "$OUT" "$S/baseline-420.jpg" "$P/420.jpg" <<'PY'
import struct, sys
out, baseline, progressive = sys.argv[1], sys.argv[2], sys.argv[3]
def tiff(order, orientation, kind=3, extra_entries=0, ifd=8):
    e = "<" if order == "II" else ">"
    entries = []
    for i in range(extra_entries):  # ImageWidth, ImageLength, … before the orientation
        entries.append(struct.pack(e + "HHI", 0x0100 + i, 3, 1) + struct.pack(e + "H", 64 + i) + b"\0\0")
    if kind == 3:
        entries.append(struct.pack(e + "HHI", 0x0112, 3, 1) + struct.pack(e + "H", orientation) + b"\0\0")
    else:
        entries.append(struct.pack(e + "HHI", 0x0112, 4, 1) + struct.pack(e + "I", orientation))
    body = struct.pack(e + "H", len(entries)) + b"".join(entries) + struct.pack(e + "I", 0)
    header = order.encode() + struct.pack(e + "HI", 42, ifd)
    return header + b"\0" * (ifd - 8) + body
def app1(payload):
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
baseline_bytes = open(baseline, "rb").read()
progressive_bytes = open(progressive, "rb").read()
for order in ("II", "MM"):
    for orientation in range(1, 9):
        payload = b"Exif\0\0" + tiff(order, orientation, extra_entries=orientation % 3)
        open(f"{out}/exif/{order}-{orientation}.bin", "wb").write(payload)
        jpeg = baseline_bytes if orientation % 2 else progressive_bytes
        with_exif = jpeg[:2] + app1(payload) + jpeg[2:]
        open(f"{out}/jpeg-structure/exif-{order}-{orientation}.jpg", "wb").write(with_exif)
        if orientation in (1, 6) or order == "MM":
            open(f"{out}/thumbnail/exif-{order}-{orientation}.jpg", "wb").write(with_exif)
    open(f"{out}/exif/{order}-long.bin", "wb").write(b"Exif\0\0" + tiff(order, 6, kind=4))
    open(f"{out}/exif/{order}-far-ifd.bin", "wb").write(b"Exif\0\0" + tiff(order, 3, ifd=40))
open(f"{out}/exif/bad-order.bin", "wb").write(b"Exif\0\0XX\0*\0\0\0\x08\0\0")
open(f"{out}/exif/ifd-past-end.bin", "wb").write(b"Exif\0\0MM\0*\xff\xff\xff\xf0\0\0")
open(f"{out}/exif/orientation-9.bin", "wb").write(b"Exif\0\0" + tiff("II", 9))
PY
cp "$P"/{420,444,422-restart-odd,grey,dc-per-component-420}.jpg "$OUT/thumbnail/"
cp "$S"/{baseline-420,baseline-grey,rgb}.jpg "$OUT/thumbnail/"

# Search pages: the recorded shapes, and two pages in one input (NUL between them).
for file in Fixtures/recent-search.{kpop,partial-errors,missing-includes,empty,errors-only,short-page1,short-page2,unknown-media-type,sample-page1}.json; do
  name=${file#Fixtures/recent-search.}
  python3 -c 'import json,sys; sys.stdout.write(json.dumps(json.load(open(sys.argv[1])), ensure_ascii=False, separators=(",", ":")))' \
    "$file" > "$OUT/search-page/$name"
done
{ cat "$OUT/search-page/short-page1.json"; printf '\0'; cat "$OUT/search-page/short-page2.json"; } \
  > "$OUT/search-page/two-pages.bin"
{ cat "$OUT/search-page/kpop.json"; printf '\0'; cat "$OUT/search-page/kpop.json"; } > "$OUT/search-page/repeated-page.bin"
for file in Fixtures/tweets-lookup.*.json; do
  name=${file#Fixtures/tweets-lookup.}
  cp "$file" "$OUT/tweets-lookup/${name%.json}"
done
for file in Fixtures/usage-tweets.*.json; do
  name=${file#Fixtures/usage-tweets.}
  cp "$file" "$OUT/usage-tweets/${name%.json}"
done

# Problem bodies, alone (classified under every status) and with a status and headers after a NUL.
for file in Fixtures/recent-search.{400,401,403-client-not-enrolled,429-rate-limit,429-usage-cap,503}.json; do
  name=${file#Fixtures/recent-search.}
  cp "$file" "$OUT/problem/$name"
done
printf '%s' '{"type":"https://api.twitter.com/2/problems/credits","title":"CreditsDepleted","detail":"Your enrolled account [1234567890123456789] does not have any credits to fulfill this request."}' \
  > "$OUT/problem/402-credits-depleted.json"
printf '%s' '{"errors":[{"message":"Invalid or expired token","code":89}]}' > "$OUT/problem/errors-message.json"
{ cat Fixtures/recent-search.429-rate-limit.json; printf '\0\5'
  printf 'x-rate-limit-limit: 450\nx-rate-limit-remaining: 0\nx-rate-limit-reset: 1795000900\nRetry-After: 120'; } \
  > "$OUT/problem/429-headers.bin"
{ cat Fixtures/recent-search.503.json; printf '\0\7'
  printf 'Retry-After: Mon, 23 Nov 2026 10:00:30 GMT\nDate: Mon, 23 Nov 2026 10:00:00 GMT'; } \
  > "$OUT/problem/503-retry-after-date.bin"
{ cat "$OUT/problem/402-credits-depleted.json"; printf '\0\2'; printf 'x-app-limit-24hour-remaining: 0'; } \
  > "$OUT/problem/402-headers.bin"

# .env files.
D="$OUT/dotenv"
printf 'X_BEARER_TOKEN=AAAA%%2Fbcd\nKFEED_QUERY="kpop has:images"\n' > "$D/plain.env"
printf 'export X_BEARER_TOKEN=abc\nexport\tKFEED_SIZE=small # inline comment\n# a comment\n\n  KFEED_DIR = /tmp/kfeed  \n' > "$D/export-comments.env"
printf "SINGLE='lit\\\\eral # not a comment'\nDOUBLE=\"line\\\\none \\\\\"quoted\\\\\" \\\\\\\\ end\" trailing\nEMPTY=\nHASH=#x\nNOQUOTE=a#b c #d\n" > "$D/quotes-escapes.env"
printf 'A=1\r\nB="two"\r\n# c\r\nexport C=3\r\n\r\nBAD KEY=4\r\n=5\r\nnot an assignment\r\n' > "$D/crlf.env"
printf 'UNTERMINATED="abc\nSQ='"'"'xyz\nUNICODE=한국어 😀\nK\xc3\xa9Y=latin\n\xff\xfe=bad utf8\n' > "$D/unterminated-unicode.env"

# Cache files as kfeed writes them: timeline.json (an entry with every key, an empty one), state.json, history.json.
C="$OUT/cache-files"
cat > "$C/timeline.json" <<'JSON'
{"empty_reason":null,"entries":[{"author":{"avatar":"avatars/1.jpg","id":"1","name":"Some One","profile_image_url":"https://pbs.twimg.com/p/1.jpg","username":"someone"},"date":"2026-11-22T09:00:00Z","image":"images/3_1.jpg","media":{"alt_text":"a stage <b>&amp;</b>","height":1600,"key":"3_1","source_url":"https://pbs.twimg.com/media/a.jpg","type":"photo","width":1200},"placeholder":false,"placeholder_reason":null,"renders":{"trmnl":"renders/3_1-trmnl.png"},"text":"오늘 무대 😀 <script>","tweet_id":"1859170000000000001","url":"https://x.com/someone/status/1859170000000000001"},{"author":{"avatar":null,"id":"2","name":"","username":"two","profile_image_url":null},"date":"2026-11-22T10:00:00.500Z","image":"placeholder-340x340.jpg","media":{"alt_text":null,"height":null,"key":"7_2","source_url":null,"type":"animated_gif","width":null},"placeholder":true,"placeholder_reason":"download failed","text":"","tweet_id":"1859170000000000002","url":"https://x.com/two/status/1859170000000000002"}],"generated_at":"2026-11-22T09:00:00Z","interval_seconds":3600,"policy":"atEnd","query":"kpop has:images -is:retweet","reload_after":"2026-11-22T10:00:00Z","schema":1,"size":{"height":340,"width":340}}
JSON
printf '%s' '{"schema":1,"generated_at":"2026-11-22T09:00:00+09:00","query":"q","policy":"after","reload_after":"2026-11-23T08:00:00Z","size":{"width":720,"height":340},"interval_seconds":900,"entries":[],"empty_reason":"no usable post in the search results"}' > "$C/timeline-empty.json"
printf '%s' '{"schema":1,"generated_at":"2026-11-22T09:00:00Z","query":"q","policy":"never","size":{"width":1,"height":1},"entries":[]}' > "$C/timeline-never.json"
printf '%s' '{"consecutive_failures":2,"last_error":{"at":"2026-11-22T09:00:00Z","class":"rate_limited","message":"recent search is rate limited (429)"},"last_success":"2026-11-21T09:00:00.250Z","rate_limit":{"app_remaining_24h":12,"limit":450,"remaining":0,"reset":"2026-11-22T09:15:00Z"},"reload_after":"2026-11-23T08:00:00Z","retry_after":"2026-11-22T09:15:00Z","schema":1,"since_id":"1859170000000000001"}' > "$C/state.json"
printf '%s' '{"consecutive_failures":0,"schema":1}' > "$C/state-minimal.json"
# history.json as a refresh writes it: two pictures (hash and colour signature) and a placeholder.
printf '%s' '{"records":[{"generation":"2026-11-22T09:00:00Z","hash":"e270348602000606","media_key":"3_1859170000000100001","post_id":"1859170000000000001","shown_at":"2026-11-22T09:00:00Z","signature":"ua9ev69fz7BhyK9hwa9g0a9h0LBhh6pXbqVTa6VUaKRTbKVTa6VTbKVUbKVUbKVUb6hVc6hWfKpXjaxa0bBhz7Bh0a9hybBgxa9fuq9ffapXbKZVcKdVb6dVb6dVb6dVc6lXc6lWbqlWdalXw7Bg1atk0LBh0a9h0a9h1atku69fcalXdKpXc6lXc6lXc6lXd6tYeKtYeatYdapYgq1Zoq5cx7Bg0bBhzrBh0LBhyLBgfKxZdKtYeatYeatYeKtYfK5ZfK5ZfK1ZfK5Ze61ZcaxZp69d1atk0q5i061jz7BhxrBgla9bdK1Yd61Zea1Zf69af69agK9af69agK9agK9agK9aqbBewbBgqrBetLBf16hmpLFdmrBctbBejLBbg7Bcg7Bcg7Bcg7Bcg7Bcg7Bcg7BbfrBbgbBcfbBbiLBclrFdmrFd0q5i1Kxkv7FgiLNdiLNdiLNdiLNdiLNdiLNdiLJdibJdiLJdibJdiLNdgLJcm7Je0q5i1KxjwLFgi7Rei7Rei7Rei7Rei7Rei7Rei7Rei7RejLRei7RejLRejbReirRepbNftrJflbRej7Vfj7Vfj7Vfj7Vfj7Vfj7Vfj7Vfj7Vfj7Vfj7Vfj7Vfj7VfkLVejLVeirVejrVelLdglLdglLdglLdgk7dgk7dgk7dgk7dgk7dgk7dgk7dgk7dglLdglbdglbdglbhgmLhgmLhgmLhgmLlhnLphnLpinLpinLpinLpinLpinLpinLphmLlhmLhgmLhgmLhgnLpinLlinbpimblhe61Zd6tYeKxYd6tYd6tYeKxYd6tYeaxZmblhnbpinLlinLpin7tjn7tjobxkmrliYqFSXJxQXZ1RXZ1RXZ1RXZ1RXJxRYJ9Smrliobxkn7tjn7tjpL1lpL1lpb1lnrtjZ6NTYJ9RYqBSYqBSYqBSYqBSYZ9SZaJTn7tjpb1lpL1lpL1lqb5lqL5lqr9mo7xkZ6NTX55RYaBSYZ9SYZ9SYZ9SYJ9RZKFTorxjqr9lqL5lqb5l"},{"generation":"2026-11-22T09:00:00Z","hash":"8c87c37132030303","media_key":"3_1859170000000100002","post_id":"1859170000000000002","shown_at":"2026-11-22T10:00:00Z","signature":"U3tSTHtRTHtRU3tTVntUVnpUVXtTVXtTUntSX3pW41117V93h3JhXXpWfXRfVHtTXXpUpGxnrGppY3lVVXtRVntRXHpTXHpTXHpTWXpTqWtowmVuiHJg31907V12q2ponW1l7V127V53pGxndXZaiHJfY3lVY3lUZXhVZXhVYHlUU3pQq2po7V5361x26Fx2kW9h7Ft27Ft20WFx6Fx17F12umdrZ3hVa3dWZXhUbnZXaHhVhnJe5V117Fx261t2b3ZWjXFflW9h3F9z7Fx261t27Ft21WFx2mByq2pncXZWdHVXb3ZWf3NalW9h5V11e3RYdXVWcnZVz2Jv7V127Fx261t27Fx27Fx27V12p2tlc3ZVfXRYeHVXcHZVyWNugnNYhHJZgXNYkHBdyGNt315z7Fx26lx26Vx17Fx2zGJufXNXg3JZg3JZgXNYiXFbinFZinFZi3FZiXFZf3NVomti7F127Ft26lx27V12v2VqhHJXjHBainFZinFZiXFZkm9akm9akm9akm9ak29akG9axWRr7Fx27Fx212Bwl25ckG9akm9akm9akm9akm9amW1amW1amG5amG5amG5amG5alG5Zpmtgq2phl25alW5ZmG1amG5amG5amW1amW1aoGxboGxbomtbpmpcpmtbpmpcp2pco2taomtapmpcpmpcpmtbpmpcomtboGxboGxbp2pcqmlcmm1ae3RXfnNYfXNYfXNYfnNYfnNYfXNYfXNYfnRXe3RXmG5aqmlcp2pcrmlctWhcjnBZRnxTTXtTTHxTTHxTTHxTTHxTTHxTTHxTTHxTRnxTi3FYtWhcrmlctWddvGZelW5aTHxTU3tTUntUUntUUntUUntUUntUUntUU3tTTXxTkm9avGZdtWdcu2Zdw2Rdmm1aSnxSU3tTUXtTUXtTUXtTUXtTUXtTUXtTUntUTHxTlm5aw2Rdu2Zdw2Rey2Jhn2xbSnxTU3tTUXtTUXtTUXtTUXtTUXtTUXtTUntUS3xTm21ay2Jgw2Re"},{"generation":"2026-11-22T09:00:00Z","media_key":"3_1859170000000100006","post_id":"1859170000000000006","shown_at":"2026-11-22T13:00:00Z"}],"schema":1}' > "$C/history.json"

# history-cells.bin as a refresh writes it: its header line, then one picture (key length, key, 128×128 cells).
{ printf 'kfeed history cells 1\n\025%s' 3_1859170000000100001; head -c 16384 /dev/zero | tr '\0' '\200'; } \
  > "$C/history-cells.bin"

# trmnl-log: a TRMNL device's /api/log body as the firmware posts it, a mixed one, and plain text.
L="$OUT/trmnl-log"
mkdir -p "$L"
printf '%s' '{"log":{"logs_array":[{"creation_timestamp":1764000000,"device_status_stamp":{"wifi_rssi_level":-61,"wifi_status":"connected","refresh_rate":900,"time_since_last_sleep_start":31,"current_fw_version":"1.6.0","special_function":"none","battery_voltage":4.1,"wakeup_reason":"timer","free_heap_size":160000,"max_alloc_size":100000},"log_id":7,"log_message":"HTTPS returned code is not OK. Code: 404","log_codeline":651,"log_sourcefile":"src/bl.cpp","additional_info":{"filename_current":"a","filename_new":"b","retry_attempt":2}}]}}' > "$L/firmware.json"
printf '%s' '{"log":{"logs_array":[{"log_message":"one"},{"log_message":"two","log_codeline":"x"},3,null,{"log_message":"\u00e9\u0001"}]}}' > "$L/mixed.json"
printf 'plain text log\r\n\x1b[31m' > "$L/text.txt"
