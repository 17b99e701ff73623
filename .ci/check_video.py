"""Decodes what `eddy run --video` and `--gif` wrote with decoders that are not eddy's.

The video with FFmpeg (Debian's `ffprobe` and `ffmpeg`): its codec, size, frame count and
frame rate, then every frame against the PNG frame eddy drew at the same step (`--frames`,
same `--every` and `--scale`): the mean colour of a known region (a wall block of the scene)
within 6 levels a channel, and the whole frame's PSNR at least 30 dB (H.264 at OpenH264's fixed
quantiser with 4:2:0 colour keeps about 35). The GIF with Pillow: its frame count and each
frame's delay for `--fps`.

    python .ci/check_video.py target/release/eddy

Needs numpy and Pillow (the CI venv has both) and ffmpeg on the PATH.
"""

import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

W, H, SCALE, STEPS, EVERY, FPS = 40, 30, 4, 40, 4, 10
# The wall block (cells): columns 4..14, rows 18..27 (row 0 at the top).
WALL = (4, 14, 18, 27)


def main():
    eddy = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp()
    scene = np.full((H, W, 3), 255, np.uint8)  # empty
    scene[2:12, 20:36] = (0, 0, 255)  # water, which falls
    x0, x1, y0, y1 = WALL
    scene[y0:y1, x0:x1] = 0  # solid
    scene[H - 1, :] = 0  # a floor
    Image.fromarray(scene).save(os.path.join(work, "scene.png"))
    run = [
        eddy, "run", "--scene", "scene.png", "--steps", str(STEPS), "--scale", str(SCALE),
        "--video", "v.mp4", "--video-every", str(EVERY), "--gif", "g.gif", "--gif-every", str(EVERY),
        "--fps", str(FPS), "--frames", "frames", "--every", str(EVERY),
    ]
    subprocess.run(run, cwd=work, check=True, env={**os.environ, "NODEVICE_SELECT": "1"})
    frames = sorted(os.listdir(os.path.join(work, "frames")))
    expected = STEPS // EVERY + 1
    assert len(frames) == expected, f"{len(frames)} PNG frames, expected {expected}"

    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_streams", "-of", "json", "v.mp4"],
        cwd=work, check=True, capture_output=True, text=True,
    )
    stream = json.loads(probe.stdout)["streams"][0]
    size = (W * SCALE, H * SCALE)
    got = {k: stream[k] for k in ("codec_name", "width", "height", "nb_read_frames", "r_frame_rate", "pix_fmt")}
    want = {
        "codec_name": "h264", "width": size[0], "height": size[1], "nb_read_frames": str(expected),
        "r_frame_rate": f"{FPS}/1", "pix_fmt": "yuv420p",
    }
    assert got == want, f"ffprobe says {got}, expected {want}"
    print(f"video: {got}, {os.path.getsize(os.path.join(work, 'v.mp4'))} bytes")

    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", "v.mp4", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        cwd=work, check=True, capture_output=True,
    ).stdout
    decoded = np.frombuffer(raw, np.uint8).reshape(expected, size[1], size[0], 3).astype(float)
    region = (slice(y0 * SCALE + 2, y1 * SCALE - 2), slice(x0 * SCALE + 2, x1 * SCALE - 2))
    worst_psnr, worst_region = 99.0, 0.0
    for i, name in enumerate(frames):
        png = np.asarray(Image.open(os.path.join(work, "frames", name)).convert("RGB"), float)
        assert png.shape == decoded[i].shape, f"{name}: {png.shape} against the video's {decoded[i].shape}"
        off = np.abs(decoded[i][region].mean(axis=(0, 1)) - png[region].mean(axis=(0, 1))).max()
        mse = ((decoded[i] - png) ** 2).mean()
        psnr = 10 * np.log10(255**2 / max(mse, 1e-9))
        worst_region, worst_psnr = max(worst_region, off), min(worst_psnr, psnr)
        assert off <= 6, f"frame {i} ({name}): the wall's mean colour is off by {off:.1f} levels"
        assert psnr >= 30, f"frame {i} ({name}): PSNR {psnr:.1f} dB against eddy's PNG"
    print(f"video: every frame within {worst_region:.2f} levels on the wall block, PSNR at least {worst_psnr:.1f} dB")

    gif = Image.open(os.path.join(work, "g.gif"))
    delays = []
    for i in range(gif.n_frames):
        gif.seek(i)
        delays.append(gif.info["duration"])
    assert gif.n_frames == expected, f"the GIF has {gif.n_frames} frames, expected {expected}"
    assert set(delays) == {1000 // FPS}, f"the GIF's delays are {set(delays)} ms, expected {1000 // FPS}"
    assert gif.size == size, f"the GIF is {gif.size}"
    print(f"gif: {gif.n_frames} frames of {gif.size}, {delays[0]} ms each")


if __name__ == "__main__":
    main()
