"""Draws examples/scripts/long-hills.png: a water world of 32768 x 2048 cells, twice as wide as
the largest texture of lavapipe and most GPUs (16384), so eddy keeps it as a packed world. Rolling
hills, a chain of perched lakes whose dams leak through a gap at the foot, and blobs of water in
the air above them. Black is ground, blue water, white air (the scene colours, docs/scenes).

    python examples/scripts/long_hills.py    # needs Pillow and NumPy
    eddy view --scene examples/scripts/long-hills.png --sleep
"""

import math
from pathlib import Path

import numpy as np
from PIL import Image

W, H = 32768, 2048


def main() -> None:
    x = np.arange(W)
    ground = (
        1500
        + 180 * np.sin(x / 1300.0)
        + 90 * np.sin(x / 410.0 + 1.0)
        + 40 * np.sin(x / 97.0 + 2.0)
    ).astype(int)
    rows = np.arange(H)[:, None]
    solid = rows >= ground[None, :]
    water = np.zeros((H, W), bool)
    # Perched lakes: a basin dug into a raised block every 2048 cells, its dam leaking through
    # a gap of 3 cells at the foot.
    for k in range(1, W // 2048):
        left = k * 2048 - 600
        top = int(ground[left : left + 700].min()) - 260
        solid[top : top + 220, left : left + 700] = True
        solid[top : top + 200, left + 20 : left + 680] = False
        water[top + 40 : top + 200, left + 20 : left + 680] = True
        solid[top + 190 : top + 193, left + 680 : left + 700] = False
    # Blobs of water in the air.
    for k in range(W // 1024):
        cx, cy, r = k * 1024 + 300, 250 + 120 * (k % 3), 40 + 10 * (k % 4)
        yy, xx = np.ogrid[cy - r : cy + r + 1, cx - r : cx + r + 1]
        box = (slice(cy - r, cy + r + 1), slice(cx - r, cx + r + 1))
        water[box] |= ((xx - cx) ** 2 + (yy - cy) ** 2 <= r * r) & ~solid[box]
    image = np.full((H, W, 3), 255, np.uint8)
    image[water & ~solid] = (0, 0, 255)
    image[solid] = (0, 0, 0)
    out = Path(__file__).with_name("long-hills.png")
    Image.fromarray(image).save(out, optimize=True)
    print(f"wrote {out} ({W} x {H}, {math.ceil(out.stat().st_size / 1024)} KiB)")


if __name__ == "__main__":
    main()
