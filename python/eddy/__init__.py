"""eddy from Python: 2D fluids (compressible water, smoke, gas) stepped on the GPU with wgpu
compute shaders, state in and out as NumPy arrays.

    import eddy
    sim = eddy.Simulation(mode="smoke", size=(128, 96), vorticity=0.3)
    sim.step(100)
    density = sim.state["density"]      # (H, W) float32, row 0 at the top

A Simulation is made exactly as ``eddy run`` makes a run: ``mode``, ``scene``, ``size``,
``seed``, ``load`` and the parameters (as keywords, ``warm_start`` for ``--warm-start``) take the
same values and are checked with the same one-line messages. Arrays have the names, shapes,
dtypes and layout of eddy's ``.npz`` state files (``eddy run --help`` lists them): ``(H, W)``,
row 0 at the top, cells as units.

Errors: ``ValueError`` for a bad parameter, scene or state; ``OSError`` for files;
``eddy.GpuError`` (a ``RuntimeError``) when there is no adapter, the device lacks what a model
needs, is lost or out of memory; ``FloatingPointError`` when a state becomes non-finite (it goes
back to its last finite state); ``KeyboardInterrupt`` from Ctrl-C in a long ``step`` (the state
reached stays).
"""

import io

import numpy as np

from ._eddy import GpuError, adapter, models
from ._eddy import Simulation as _Simulation

__all__ = ["Simulation", "GpuError", "adapter", "models", "load"]


class Simulation(_Simulation):
    """One fluid model on the GPU. See the module's docs; ``eddy.models()`` lists the
    parameters of each model with their units, ranges, defaults and sources."""

    @property
    def state(self):
        """The state: a dict of NumPy arrays with the names, shapes, dtypes and layout of eddy's
        ``.npz`` state files (``(H, W)``, row 0 at the top), ``step`` (an int64 scalar) and
        ``parameters`` (the parameters as ``name = value`` lines, UTF-8 in a uint8 array:
        ``bytes(state["parameters"]).decode()``)."""
        with np.load(io.BytesIO(self.state_npz())) as npz:
            return {name: npz[name] for name in npz.files}

    def set_state(self, state):
        """Replaces the state by ``state`` (a dict as ``state`` gives), with the checks of
        ``eddy run --load``: the model's arrays, their shapes and dtypes, finite and
        non-negative values; ``ValueError`` says what is wrong. ``step`` is kept when given;
        ``parameters`` are not read (``set`` sets parameters)."""
        if not isinstance(state, dict):
            raise ValueError("set_state takes a dict of arrays, as Simulation.state gives")
        buffer = io.BytesIO()
        np.savez(buffer, **{name: np.asarray(value) for name, value in state.items()})
        self.set_state_npz(buffer.getvalue())


def load(path):
    """A Simulation that starts from the ``.npz`` state file at ``path`` (its arrays tell the
    model) with the parameters it was saved with, as ``eddy run --load``."""
    return Simulation(load=path)
