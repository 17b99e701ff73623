"""A parameter sweep in parallel with Dask: the lid-driven cavity at several Reynolds numbers,
each run to a steady state in its own worker process (each opens its own GPU device), the
results gathered as a table. The same code runs on a cluster: give `--scheduler ADDRESS` of a
`dask.distributed` scheduler instead of the local one.

    python examples/python/sweep.py [--re 50,100,200] [--size N] [--workers 2] [--scheduler ADDR]

Prints, per Reynolds number: the time to the steady state and the velocity at the cavity's
centre and its lowest u on the vertical centreline (at Ghia's points), in units of the lid
speed. Needs dask[distributed].
"""

import argparse

from dask.distributed import Client, LocalCluster


def cavity(reynolds, size, tolerance):
    """One run, in a worker: the cavity at `reynolds` on `size` x `size` cells."""
    import eddy_fluid as eddy

    sim = eddy.Simulation(scene="cavity", size=(size, size), reynolds=reynolds)
    steady = sim.run_to_steady(tolerance, 3000.0)
    u = sim.cavity_profiles()["u"]
    centre = min(u, key=lambda p: abs(p[0] - 0.5))[2]
    return {
        "reynolds": reynolds,
        "reached": steady["reached"],
        "time": steady["time"],
        "u_centre": centre,
        "u_min": min(p[2] for p in u),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--re", default="50,100,200", help="Reynolds numbers, comma-separated")
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    parser.add_argument("--scheduler", help="address of a running dask.distributed scheduler")
    args = parser.parse_args()
    numbers = [float(x) for x in args.re.split(",")]

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    with client:
        futures = client.map(cavity, numbers, size=args.size, tolerance=args.tolerance)
        results = client.gather(futures)
    print("| Re | steady | time units | u at the centre | lowest u on the centreline |")
    print("|---|---|---|---|---|")
    for r in results:
        print(f"| {r['reynolds']:g} | {r['reached']} | {r['time']:.0f} | {r['u_centre']:+.4f} | {r['u_min']:+.4f} |")


if __name__ == "__main__":
    main()
