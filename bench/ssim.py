#!/usr/bin/env python3
"""SSIM of thumbnails against a full-resolution Lanczos-3 reference (used by bench/images.sh).

usage: ssim.py WxH CORPUS_FILES_LIST LABEL=DIR [LABEL=DIR ...]

The reference for each photo: decode at full resolution, apply the EXIF orientation, centre-crop to the
target aspect (sub-pixel exact) and resample with Pillow's Lanczos-3 (ImageOps.fit). SSIM (Wang et al. 2004:
11x11 Gaussian, sigma 1.5, K1 0.01, K2 0.03, over the valid region) is computed on each of R, G and B and
averaged ("rgb", the figure the benchmark compares), and on BT.601 luma ("luma", what the eye weighs most).
Prints one line per label and metric, `LABEL METRIC mean MEAN min MIN FILE n N`, then for the first label
against each other one `FIRST below OTHER METRIC K of N`, and `LABEL missing FILE` for absent outputs.
"""
import os
import sys

import numpy as np
from PIL import Image, ImageOps


def gaussian(size=11, sigma=1.5):
    x = np.arange(size) - (size - 1) / 2
    k = np.exp(-(x**2) / (2 * sigma**2))
    return k / k.sum()


KERNEL = gaussian()


def blur(a):
    n = len(KERNEL)
    h, w = a.shape
    t = sum(KERNEL[i] * a[:, i : w - n + 1 + i] for i in range(n))
    return sum(KERNEL[i] * t[i : h - n + 1 + i, :] for i in range(n))


def ssim(x, y):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mx, my = blur(x), blur(y)
    sxx = blur(x * x) - mx * mx
    syy = blur(y * y) - my * my
    sxy = blur(x * y) - mx * my
    m = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))
    return float(m.mean())


def rgb(image):
    return np.asarray(image.convert("RGB"), dtype=np.float64)


def luma(a):
    return 0.299 * a[..., 0] + 0.587 * a[..., 1] + 0.114 * a[..., 2]


METRICS = {
    "rgb": lambda x, y: sum(ssim(x[..., c], y[..., c]) for c in range(3)) / 3,
    "luma": lambda x, y: ssim(luma(x), luma(y)),
}


def main():
    width, height = (int(v) for v in sys.argv[1].lower().split("x"))
    with open(sys.argv[2]) as f:
        files = [line.strip() for line in f if line.strip()]
    outputs = [arg.split("=", 1) for arg in sys.argv[3:]]
    scores = {(label, metric): {} for label, _ in outputs for metric in METRICS}
    for path in files:
        name = os.path.splitext(os.path.basename(path))[0] + ".jpg"
        with Image.open(path) as image:
            upright = ImageOps.exif_transpose(image).convert("RGB")
        reference = rgb(ImageOps.fit(upright, (width, height), Image.LANCZOS, centering=(0.5, 0.5)))
        for label, directory in outputs:
            candidate = os.path.join(directory, name)
            if not os.path.exists(candidate):
                print(f"{label} missing {name}")
                continue
            with Image.open(candidate) as image:
                if image.size != (width, height):
                    print(f"{label} wrong-size {name} {image.size}")
                    continue
                pixels = rgb(image)
            for metric, measure in METRICS.items():
                scores[(label, metric)][name] = measure(reference, pixels)
    for (label, metric), values in scores.items():
        if not values:
            print(f"{label} {metric} mean nan min nan none n 0")
            continue
        worst = min(values, key=values.get)
        mean = sum(values.values()) / len(values)
        print(f"{label} {metric} mean {mean:.4f} min {values[worst]:.4f} {worst} n {len(values)}")
    first = outputs[0][0]
    for label, _ in outputs[1:]:
        for metric in METRICS:
            mine, theirs = scores[(first, metric)], scores[(label, metric)]
            common = [name for name in mine if name in theirs]
            below = sum(1 for name in common if mine[name] < theirs[name])
            print(f"{first} below {label} {metric} {below} of {len(common)}")


if __name__ == "__main__":
    main()
