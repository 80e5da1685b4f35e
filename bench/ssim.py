#!/usr/bin/env python3
"""SSIM of thumbnails against a Pillow Lanczos reference (used by bench/images.sh).

usage: ssim.py WxH CORPUS_FILES_LIST LABEL=DIR [LABEL=DIR ...]

The reference for each photo: decode at full resolution, apply the EXIF orientation, centre-crop to the
target aspect and resample with Lanczos (ImageOps.fit). SSIM (Wang et al. 2004: 11x11 Gaussian, sigma 1.5,
K1 0.01, K2 0.03) is computed on BT.601 luma, over the valid region. Prints one line per label:
`LABEL mean MEAN min MIN (FILE) n N`, and `LABEL missing FILE` for absent outputs.
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


def luma(image):
    a = np.asarray(image.convert("RGB"), dtype=np.float64)
    return 0.299 * a[..., 0] + 0.587 * a[..., 1] + 0.114 * a[..., 2]


def ssim(x, y):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mx, my = blur(x), blur(y)
    sxx = blur(x * x) - mx * mx
    syy = blur(y * y) - my * my
    sxy = blur(x * y) - mx * my
    m = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))
    return float(m.mean())


def main():
    width, height = (int(v) for v in sys.argv[1].lower().split("x"))
    with open(sys.argv[2]) as f:
        files = [line.strip() for line in f if line.strip()]
    outputs = [arg.split("=", 1) for arg in sys.argv[3:]]
    scores = {label: [] for label, _ in outputs}
    for path in files:
        name = os.path.splitext(os.path.basename(path))[0] + ".jpg"
        with Image.open(path) as image:
            upright = ImageOps.exif_transpose(image).convert("RGB")
        reference = luma(ImageOps.fit(upright, (width, height), Image.LANCZOS, centering=(0.5, 0.5)))
        for label, directory in outputs:
            candidate = os.path.join(directory, name)
            if not os.path.exists(candidate):
                print(f"{label} missing {name}")
                continue
            with Image.open(candidate) as image:
                if image.size != (width, height):
                    print(f"{label} wrong-size {name} {image.size}")
                    continue
                scores[label].append((ssim(reference, luma(image)), name))
    for label, values in scores.items():
        if not values:
            print(f"{label} mean nan min nan (none) n 0")
            continue
        worst = min(values)
        mean = sum(v for v, _ in values) / len(values)
        print(f"{label} mean {mean:.4f} min {worst[0]:.4f} ({worst[1]}) n {len(values)}")


if __name__ == "__main__":
    main()
