#!/usr/bin/env bash
# Writes Fixtures/images/progressive/*.jpg: progressive JPEGs whose scan layouts exercise kfeed's first-pass
# decoder (ProgressiveFirstPassDecoderTests). Deterministic; needs python3-pil and libjpeg-turbo-progs (cjpeg,
# jpegtran). The picture: gradients, discs and fine stripes, so that low and high frequencies both matter.
set -euo pipefail
OUT=$(cd "$(dirname "$0")/../images/progressive" && pwd)
SCANS=$(cd "$(dirname "$0")/scans" && pwd)  # scan scripts, shared with Fuzz/make-seeds.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

python3 - "$TMP" <<'PY'
import math, sys
from PIL import Image, ImageDraw
def picture(width, height):
    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            stripes = 60 if (x // 3) % 2 == 0 and y > height * 2 // 3 else 0
            pixels[x, y] = (int(255 * x / (width - 1)), int(255 * y / (height - 1)),
                            int(127 + 100 * math.sin(x / 9.0) * math.cos(y / 7.0)) - stripes // 2)
    draw = ImageDraw.Draw(image)
    draw.ellipse((width // 5, height // 6, width // 2, height // 2), fill=(240, 40, 30))
    draw.ellipse((width // 2, height // 5, width * 9 // 10, height * 3 // 5), fill=(20, 60, 230))
    draw.rectangle((width // 8, height * 3 // 5, width // 3, height * 9 // 10), fill=(250, 240, 40))
    return image
picture(256, 160).save(sys.argv[1] + "/even.ppm")
picture(203, 117).save(sys.argv[1] + "/odd.ppm")
picture(256, 160).convert("L").save(sys.argv[1] + "/grey.pgm")
PY


cjpeg -quality 90 -sample 2x2 -progressive "$TMP/even.ppm" > "$OUT/standard-420.jpg"
cjpeg -quality 90 -sample 1x1 -progressive "$TMP/even.ppm" > "$OUT/standard-444.jpg"
cjpeg -quality 90 -sample 2x1 -progressive -restart 3B "$TMP/odd.ppm" > "$OUT/restart-422-odd-size.jpg"
cjpeg -quality 90 -sample 1x1 -scans "$SCANS/spectral.txt" "$TMP/even.ppm" > "$OUT/spectral-only-444.jpg"
cjpeg -quality 90 -sample 2x2 -scans "$SCANS/dc-per-component.txt" "$TMP/odd.ppm" > "$OUT/dc-per-component-420.jpg"
cjpeg -quality 90 -grayscale -progressive "$TMP/grey.pgm" > "$OUT/grayscale.jpg"
ls -l "$OUT"
