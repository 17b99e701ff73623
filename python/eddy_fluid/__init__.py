"""eddy from Python: 2D fluids (compressible water, smoke, gas) stepped on the GPU with wgpu
compute shaders, state in and out as NumPy arrays.

    import eddy_fluid as eddy
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

A Simulation may be shared between threads: each call waits for another thread's call to
finish (a long ``step`` or ``stroke`` lets others in between its chunks of about 0.25 s).
"""

import io
import os

import numpy as np


def _quiet_device_select():
    """Mesa's device-select Vulkan layer prints ``XDG_RUNTIME_DIR is invalid or not set`` for
    every Vulkan instance where that folder is missing (containers, CI, ssh); it only matters to
    pick a GPU with ``MESA_VK_DEVICE_SELECT``. As the ``eddy`` command does, turn it off
    (``NODEVICE_SELECT=1``) when the folder is unusable and the user set neither variable."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    chose = "NODEVICE_SELECT" in os.environ or "MESA_VK_DEVICE_SELECT" in os.environ
    if not (runtime and os.path.isdir(runtime)) and not chose:
        os.environ["NODEVICE_SELECT"] = "1"


_quiet_device_select()

from ._eddy import GpuError, adapter, models  # noqa: E402 (after the environment is set)
from ._eddy import Simulation as _Simulation  # noqa: E402

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

    def set_state(self, state, resize=False):
        """Replaces the state by ``state`` (a dict as ``state`` gives), with the checks of
        ``eddy run --load``: the model's arrays, their shapes and dtypes, finite and
        non-negative values; ``ValueError`` says what is wrong, and nothing changes. Arrays of
        any memory order (``arr.T``, Fortran order) are taken as the values they hold. The grid
        keeps its size: arrays of another ``(H, W)`` are refused unless ``resize=True``. ``step``
        is kept when given; ``parameters`` are not read (``set`` sets parameters)."""
        if not isinstance(state, dict):
            raise ValueError("set_state takes a dict of arrays, as Simulation.state gives")
        arrays = {}
        for name, value in state.items():
            array = np.asarray(value)
            # .npz stores Fortran order as a flag eddy's reader refuses: write the values in
            # row-major order (a 0-d array, the step, stays 0-d).
            arrays[name] = array if array.flags.c_contiguous else array.copy(order="C")
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        self.set_state_npz(buffer.getvalue(), resize=bool(resize))

    def stroke(self, points, tool="fluid", radius=None):
        """Draws along ``points`` with a viewer tool (``fluid``, ``wall`` or ``erase``): a
        sequence of ``(x, y)`` pairs in cells or an ``(N, 2)`` array (one pair, or a flat
        ``(2,)`` array, is a dab); x along a row, the centre of cell (r, c) at (c + 0.5, r + 0.5).
        ``radius`` in cells (default the model's brush). At most 100,000 points; Ctrl-C stops it
        between chunks (the part drawn stays). ValueError for anything else."""
        try:
            array = np.asarray(points, dtype=np.float32)
        except (TypeError, ValueError) as e:
            raise ValueError(f"points: give (x, y) pairs of numbers, as an (N, 2) array or a list ({e})") from None
        if array.shape == (2,):
            array = array.reshape(1, 2)
        if array.ndim != 2 or array.shape[1] != 2:
            raise ValueError(f"points: an array of shape {array.shape}; give (N, 2): one (x, y) pair a row")
        self.stroke_points(np.ascontiguousarray(array), tool, radius)

    def splat(self, x, y, tool="fluid", radius=None):
        """A dab at ``(x, y)`` cells: ``stroke([(x, y)], tool, radius)``."""
        self.stroke([(x, y)], tool, radius)


def load(path):
    """A Simulation that starts from the ``.npz`` state file at ``path`` (its arrays tell the
    model) with the parameters it was saved with, as ``eddy run --load``."""
    return Simulation(load=path)
