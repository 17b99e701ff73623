"""Type stubs of eddy's Python module (python/eddy_fluid/__init__.py, python/src/lib.rs).

Shapes are (H, W), row 0 at the top; positions (x, y) are in cells, x along a row, the centre of
cell (r, c) at (c + 0.5, r + 0.5); velocities in cells per step (water, gas) or per time unit
(smoke). The arrays and their units are those of the .npz state files (``eddy run --help``).
"""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, "PathLike[str]"]
_Value = Union[float, int, str, Tuple[float, float], None]

class GpuError(RuntimeError):
    """No adapter, a device that lacks what a model needs, a lost device, out of memory."""

class Simulation:
    """One fluid model on the GPU, made exactly as ``eddy run`` makes a run.

    ``mode``: "water", "smoke" or "gas" (default: what ``load``'s arrays or ``scene``'s preset
    belong to, else water). ``scene``: a preset (``basin``, ``u-tube``, ``random``, ``plume``,
    ``cavity``, ``channel``, ``explosion``, ``wind``, ``tunnel``) or a PNG file. ``size``: (W, H) cells of a preset
    (default 192 x 128). ``seed``: the ``random`` preset's. ``load``: a .npz state file (its
    saved parameters are the start's, before those given).
    ``params``: the model's parameters by name (``eddy.models()``; ``warm_start`` for
    ``--warm-start``), as numbers, choice names, (x, y) pairs or booleans (on / off). The box's
    edges (``left_edge`` ...) and ``inflow`` are smoke's and gas's alike: each model takes its own.

    Raises ValueError (a parameter out of range, a preset of another model, a bad scene or
    state file: the command line's one-line messages), OSError (a file that cannot be read),
    GpuError.
    """

    def __init__(
        self,
        mode: Optional[str] = ...,
        scene: Optional[str] = ...,
        size: Optional[Tuple[int, int]] = ...,
        seed: Optional[int] = ...,
        load: Optional[_Path] = ...,
        bodies: Union[str, Sequence[str], None] = ...,
        **params: Any,
    ) -> None:
        """``bodies``: rigid bodies, each as ``eddy run --body`` takes it; one
        string is one body. Velocities are in cells per time unit in smoke, cells per step in
        water and gas. NumPy arrays and scalars are taken as parameter values (``wind=np.array([0.1,
        0])``)."""
    def step(self, n: int = 1) -> None:
        """``n`` steps on the GPU, the GIL released. KeyboardInterrupt (Ctrl-C, checked about
        every 0.25 s) keeps the state reached; a non-finite state goes back to its last finite
        one and raises FloatingPointError; GpuError when the device fails."""
    @property
    def state(self) -> Dict[str, npt.NDArray[Any]]:
        """The state's arrays by name, as in the .npz files: e.g. water ``mass`` (H, W) float32,
        ``solid`` (H, W) uint8; ``step`` (an int64 scalar) and ``parameters`` (``name = value``
        lines as UTF-8 in a uint8 array: ``bytes(state["parameters"]).decode()``)."""
    def set_state(self, state: Dict[str, npt.ArrayLike], resize: bool = ...) -> None:
        """Replaces the state (the model's arrays, finite, non-negative where eddy needs it, of
        any memory order); ValueError says what is wrong and nothing changes. Arrays of another
        (H, W) than the simulation's are refused unless ``resize=True``. ``parameters`` are not
        read (``set`` sets them)."""
    def state_npz(self) -> bytes: ...
    def set_state_npz(self, data: bytes, resize: bool = ...) -> None:
        """``set_state`` from a .npz file's bytes; each array's header is checked against the
        device before anything is decompressed (ValueError)."""
    def save(self, path: _Path) -> None:
        """Writes the state to ``path`` (.npz; written beside it and renamed over it).
        ValueError for another extension, OSError when it cannot be written."""
    @property
    def params(self) -> Dict[str, _Value]:
        """The parameters in use (None: automatic)."""
    def set(self, **params: Any) -> str:
        """Sets parameters (the command line's ranges and messages: ValueError); returns the
        changes, e.g. ``"friction 0.01 -> 0.02"``, or ``"no change"``."""
    def defaults(self) -> Dict[str, _Value]:
        """The model's default parameters."""
    def stats(self) -> Dict[str, Any]:
        """``step``, ``total`` (water and gas mass, smoke density), ``non_finite`` (cells),
        ``kinetic_energy`` and ``divergence`` (None where the model has none), smoke's
        ``solver_residual``, ``solver_cycles`` (None for Jacobi) and ``solver_capped`` (the
        last multigrid solve stopped at ``max_cycles`` above ``tolerance``), and ``line`` as
        ``eddy run`` prints it."""
    def render(
        self,
        field: Optional[str] = ...,
        colour_map: Optional[str] = ...,
        scale: int = ...,
        look: Optional[str] = ...,
    ) -> npt.NDArray[np.uint8]:
        """The picture ``eddy run --frames`` draws, (H * scale, W * scale, 3) uint8 RGB;
        ``look``: ``"map"`` (default) or ``"styled"``, as ``--look``. ValueError for an unknown
        field, colour map or look, or a scale outside 1..=64."""
    def stroke(
        self,
        points: Union[Sequence[Tuple[float, float]], npt.ArrayLike],
        tool: str = ...,
        radius: Optional[float] = ...,
    ) -> None:
        """Draws along ``points`` (cells: (x, y) pairs, or an (N, 2) array) with the viewer's
        ``fluid``, ``wall`` or ``erase`` tool; one point is a dab; ``radius`` in cells (default
        the model's brush). At most 100,000 points; Ctrl-C stops it between chunks."""
    def stroke_points(self, points: npt.NDArray[np.float32], tool: str = ..., radius: Optional[float] = ...) -> None:
        """``stroke`` of a C-ordered (N, 2) float32 array."""
    def splat(self, x: float, y: float, tool: str = ..., radius: Optional[float] = ...) -> None:
        """A dab at (x, y) cells: ``stroke([(x, y)], ...)``."""
    @property
    def bodies(self) -> List[Dict[str, Any]]:
        """The rigid bodies where the steps so far leave them: ``shape``
        (``circle`` with ``radius``, or ``box`` with ``width``, ``height``; cells), ``x``, ``y``
        (cells, y down), ``angle`` (radians), ``vx``, ``vy`` (cells per time unit in smoke, per
        step in gas), ``spin`` (radians per time unit, or per step)."""
    def set_inflow_profile(self, edge: str, speeds: Sequence[float]) -> None:
        """Smoke: inflow edge ``edge`` (``"left"``, ``"right"``, ``"top"``, ``"bottom"``) gets a
        speed into the box per face (cells per time unit; ``H`` values from the top for the left
        and right edges, ``W`` from the left for the top and bottom), and the profile becomes
        ``custom``: each face keeps its speed. ValueError for another model, an edge that is not
        an inflow, the wrong count, or a speed outside 0 to 100."""
    def forces(self) -> npt.NDArray[np.float32]:
        """The fluid's force and torque on each body over the last step, float32 ``(N, 3)``:
        row ``i`` is body ``i``'s ``[fx, fy, torque]`` (force per unit depth, cell masses x
        cells / time unit^2, the fluid's density 1 a cell; y down; torque about the body's
        centre, positive from x towards y; water's and gas's per step^2). ValueError where bodies
        feel no force (smoke on the collocated grid, water that never had bodies)."""
    def force_log(self) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """Every step logged since the last read (by this or ``forces``; the log holds the last
        256 steps): ``(steps, forces)``, int64 ``(S,)`` and float32 ``(S, N, 3)`` as ``forces``
        gives them (NaN for bodies a step did not have)."""
    def add_body(self, spec: str) -> int:
        """Adds a body as ``eddy run --body`` takes it (``"circle:x=40,y=32,r=8,vx=0.5"``;
        ``box`` takes ``w``, ``h``; ``plate`` ``length``; ``density=`` makes it free, moved by
        the fluid, in smoke, water and gas); returns its index. ValueError for a bad spec, more
        than 16 bodies, or one too fast (smoke: 2 cells a step at its fastest point; water: 0.5;
        gas: 0.25 cells a step)."""
    def drive_body(self, index: int, vx: float = ..., vy: float = ..., spin: float = ...) -> None:
        """A body's new velocity and spin (smoke: cells and radians per time unit; gas: per
        step), within the speed limits of ``add_body``."""
    def remove_body(self, index: int) -> None:
        """Removes a body; the later ones move down one."""
    def run_to_steady(self, tolerance: float = ..., max_time: float = ...) -> Dict[str, Any]:
        """Smoke: steps until the velocity changes by less than ``tolerance`` of its top
        speed per time unit, or ``max_time`` time units pass; ``{"reached", "time", "steps",
        "change"}``."""
    def cavity_profiles(self) -> Dict[str, List[Tuple[float, float, float]]]:
        """Smoke cavity: ``{"u": [(y, ghia, eddy)], "v": [(x, ghia, eddy)]}`` at the 15 interior
        points of Ghia, Ghia & Shin (1982) Tables I and II, in units of the lid speed."""
    @property
    def mode(self) -> str: ...
    @property
    def steps(self) -> int: ...
    @property
    def size(self) -> Tuple[int, int]:
        """(W, H) cells."""
    sleep: bool
    """Whether the water steps only the tiles where something can change (``eddy run --sleep``):
    the same masses to the bit, faster where most of the world is still."""
    def state_hash(self) -> int:
        """The state hash (64 bits), the same exactly when the state's bits are, as ``eddy run``
        prints it: water's masses and walls, smoke's fields, dye and solid bits, gas's density,
        momentum and wall bits."""
    def awake_tiles(self) -> Optional[Dict[str, Any]]:
        """While the water sleeps, ``{"awake", "all", "tile"}``: the tiles the next step takes,
        all the tiles, a tile's (width, height) in cells; None while every cell is stepped."""

def load(path: _Path) -> Simulation:
    """A Simulation starting from a .npz state file (``eddy run --load``)."""

def adapter() -> Dict[str, str]:
    """``{"name", "backend", "device_type"}`` of the adapter eddy would run on."""

def models() -> Dict[str, List[Dict[str, Any]]]:
    """Each model's parameter table: name, symbol, unit, allowed, default, help, source."""
