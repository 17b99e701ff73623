"""A smoke plume rendered to frames from Python: the `plume` preset (a hot source under a round
obstacle), a PNG every few steps, drawn by eddy as `eddy run --frames` draws them.

    python examples/python/plume.py [FOLDER] [--size WxH] [--steps N] [--every N] [--field F]

Needs matplotlib (to write the PNGs).
"""

import argparse
import pathlib

import matplotlib.pyplot as plt

import eddy_fluid as eddy


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="plume-frames")
    parser.add_argument("--size", default="128x128", help="WxH cells (default 128x128)")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--field", default="dye", help="what to draw (default dye)")
    args = parser.parse_args()
    w, h = (int(x) for x in args.size.lower().split("x"))

    out = pathlib.Path(args.folder)
    out.mkdir(parents=True, exist_ok=True)
    sim = eddy.Simulation(scene="plume", size=(w, h))
    while sim.steps < args.steps:
        sim.step(min(args.every, args.steps - sim.steps))
        image = sim.render(field=args.field, scale=2)  # (2H, 2W, 3) uint8
        path = out / f"frame_{sim.steps:06d}.png"
        plt.imsave(path, image)
        print(f"step {sim.steps}: {path} ({sim.stats()['line']})")


if __name__ == "__main__":
    main()
