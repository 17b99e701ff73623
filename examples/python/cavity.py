"""The lid-driven cavity at Re = 100 against Ghia, Ghia & Shin (1982, J. Comput. Phys. 48,
387-411, Tables I and II): eddy's smoke model (`--scene cavity`: staggered grid, lid speed 1,
multigrid) run to a steady state, its velocity on the two centrelines at Ghia's 15 interior
points, plotted over Ghia's values.

    python examples/python/cavity.py [OUT.png] [--size N] [--tolerance T]

Prints the table and the largest difference (in units of the lid speed); writes the plot.
Needs matplotlib.
"""

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import eddy_fluid as eddy  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", default="cavity-ghia.png", help="the plot (PNG)")
    parser.add_argument("--size", type=int, default=64, help="cells per side (default 64)")
    parser.add_argument("--tolerance", type=float, default=1e-5, help="steady when the velocity changes less than this")
    args = parser.parse_args()

    sim = eddy.Simulation(scene="cavity", size=(args.size, args.size))
    steady = sim.run_to_steady(args.tolerance)
    print(f"{args.size}x{args.size}: steady={steady['reached']} after {steady['time']:.0f} time units")
    profiles = sim.cavity_profiles()
    worst = 0.0
    for name in "uv":
        for at, ghia, ours in profiles[name]:
            print(f"{name} at {at:.4f}: Ghia {ghia:+.5f}, eddy {ours:+.5f}, difference {ours - ghia:+.5f}")
            worst = max(worst, abs(ours - ghia))
    print(f"largest difference {worst:.4f} of the lid speed")

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4), constrained_layout=True)
    u, v = profiles["u"], profiles["v"]
    left.plot([p[2] for p in u], [p[0] for p in u], "-", color="tab:blue", label=f"eddy, {args.size}x{args.size}")
    left.plot([p[1] for p in u], [p[0] for p in u], "o", mfc="none", color="black", label="Ghia et al. (1982)")
    left.set(xlabel="u / lid speed", ylabel="y (vertical centreline)", title="u on the vertical centreline")
    right.plot([p[0] for p in v], [p[2] for p in v], "-", color="tab:orange", label=f"eddy, {args.size}x{args.size}")
    right.plot([p[0] for p in v], [p[1] for p in v], "o", mfc="none", color="black", label="Ghia et al. (1982)")
    right.set(xlabel="x (horizontal centreline)", ylabel="v / lid speed", title="v on the horizontal centreline")
    for ax in (left, right):
        ax.grid(alpha=0.3)
        ax.legend(loc="best")
    fig.suptitle(f"lid-driven cavity, Re = 100: largest difference {worst:.4f} of the lid speed")
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
