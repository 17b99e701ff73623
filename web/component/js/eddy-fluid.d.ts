// Types of eddy-fluid: eddy's fluids in any web page, on WebGPU.
//
// Units: positions, motions and radii are CSS pixels from the canvas's top-left corner, or cells
// with `units: "cells"` ([column, row], row 0 at the top). Time is the model's step: the
// simulation takes `stepsPerFrame` steps an animation frame.

/** The message `create` rejects with (and the element shows) where WebGPU is missing. */
export declare const UNSUPPORTED: string;

/** Whether this browser offers WebGPU at all (`navigator.gpu`). */
export declare function supported(): boolean;

/** Loads and compiles the module once for the page (`create` calls it), starting the browser's WebGPU meanwhile; `moduleUrl` overrides where the `.wasm` is. */
export declare function load(moduleUrl?: string | URL): Promise<unknown>;

/** The models: the water automaton, GPU Gems smoke (staggered, MacCormack), the gas automaton. */
export type Model = "water" | "smoke" | "gas";

/** How the fluid is drawn. */
export type Look = "styled" | "map";

export interface Options {
  /** Which model. Default "smoke". */
  model?: Model;
  /** A preset scene of the model (as `eddy run --scene`); default the model's own. */
  scene?: string;
  /** Most cells along the grid's longer side (8 to 2048). Default 256. */
  resolution?: number;
  /** Device pixels a cell, before `resolution` caps the grid. Default 4. */
  cellSize?: number;
  /** Empty fluid shows the page behind (smoke's empty air, water's air). Default false. */
  transparent?: boolean;
  /** "styled": smoke lit and shaded with a glow, water as a surface with depth and foam, gas as a schlieren image; "map": the field through its colour map. Default "styled". */
  look?: Look;
  /** The styled smoke's glow, 0 (none) to 4. Default 0.3. */
  bloom?: number;
  /** The pointer and touch stir the fluid. Default true. */
  interactive?: boolean;
  /** A point moves by itself and splats while the pointer is still. Default true (false under prefers-reduced-motion). */
  autoDemo?: boolean;
  /** Milliseconds after the last pointer move before the demo takes over again. Default 2500. */
  autoDemoDelay?: number;
  /** Speed of the demo's point, relative. Default 1. */
  autoSpeed?: number;
  /** Steps an animation frame. Default 1. */
  stepsPerFrame?: number;
  /** Splat radius, cells; 0 picks 4% of the shorter side. Default 0. */
  splatRadius?: number;
  /** A splat's velocity for a motion of one cell, cells per time unit. Default 30. */
  force?: number;
  /** Dye colours splats cycle through ("#rrggbb"). */
  colors?: string[];
  /** Parameters by name, as `eddy run`'s options take them, e.g. { vorticity: 0.3 }. */
  params?: Record<string, string | number>;
  /** Start paused (one frame drawn). Default false. */
  paused?: boolean;
  /** Water: step only the tiles where something can change (the same masses to the bit). Default false. */
  sleep?: boolean;
  /** Seed of random scenes. Default 1. */
  seed?: number;
  /** Where the `.wasm` is, when not beside the module. */
  moduleUrl?: string | URL;
}

export interface SplatOptions {
  x: number;
  y: number;
  /** Motion along x and y, in `units`; the splat moves at this times `force` per time unit. Default 0. */
  dx?: number;
  dy?: number;
  /** In `units`; default the component's splat radius. */
  radius?: number;
  /** Smoke's dye, "#rrggbb"; default the next of `colors`. */
  color?: string;
  /** "css" (default) or "cells". */
  units?: "css" | "cells";
}

/** A fluid simulation drawn into a canvas. Fires `error` events (CustomEvent, detail: { message }). */
export declare class EddyFluid extends EventTarget {
  /** The model shown. */
  readonly model: Model;
  /** The grid, [width, height] cells. */
  readonly grid: [number, number];
  /** Steps since the scene started. */
  readonly steps: number;
  /** The WebGPU adapter it runs on. */
  readonly adapter: string;
  /** Whether the page shows through where the fluid is empty. */
  readonly transparent: boolean;
  /** Whether it is stepping now (not paused, the page visible). */
  readonly running: boolean;
  /** The model's parameters, name to value as the command line writes them. */
  readonly params: Record<string, string>;
  /** Sets parameters by name (checked together; throws eddy's message and changes nothing on a bad one); returns the changes. */
  set(params: Record<string, string | number>): string;
  /** The look drawn. */
  readonly look: Look;
  /** Draws with `look` from now on; throws a RangeError for another name. */
  setLook(look: Look): void;
  /** Sets the styled smoke's glow, 0 to 4; throws a RangeError outside. */
  setBloom(bloom: number): void;
  /** Makes `model` current on its default scene; throws for an unknown model. */
  setModel(model: Model): void;
  /** Starts the scene again, parameters kept; with `scene`, that preset (throws for an unknown one). */
  reset(scene?: string): void;
  /** Takes `steps` steps now, whether running or paused, and draws. */
  step(steps?: number): void;
  pause(): void;
  resume(): void;
  /** A splat; throws for numbers that are not finite or a radius not above 0. */
  splat(options: SplatOptions): void;
  /** One move of the fluid tool from `from` to `to`, as a drag in eddy's viewer; `erase` clears. */
  stroke(from: [number, number], to: [number, number], options?: { erase?: boolean; units?: "css" | "cells" }): void;
  /**
   * Reads field `name` back from the GPU, without blocking: H * W values, row-major, row 0 at the
   * top (`grid` is [W, H]), in the model's units. Water: "mass" (1 a full cell); smoke:
   * "density", "temperature", "pressure", "divergence", "velocity_x", "velocity_y" (cells per
   * time unit); gas: "density", "momentum_x", "momentum_y". Rejects for a field the model has not.
   */
  read(name: string): Promise<Float32Array>;
  /** Whether still water sleeps. */
  readonly sleep: boolean;
  /** Lets still water sleep (true) or steps every cell (false). */
  setSleep(on: boolean): void;
  /** The state hash, 16 hex digits as `eddy run` prints it: the same exactly when the state's bits are. */
  stateHash(): Promise<string>;
  /** Follows the canvas's size now (it follows by itself too). */
  resize(): void;
  /** Stops, removes its listeners and frees every GPU resource. */
  destroy(): void;
}

/** Starts a fluid in `canvas`; rejects with an Error saying what was wrong (no WebGPU: UNSUPPORTED in its message). */
export declare function create(canvas: HTMLCanvasElement, options?: Options): Promise<EddyFluid>;

/**
 * `<eddy-fluid>`: attributes model, scene, resolution, cell-size, transparent, look, bloom, interactive,
 * auto-demo, auto-demo-delay, auto-speed, steps-per-frame, splat-radius, force, colors
 * ("#a #b"), params ("name=value name=value"), paused, sleep, seed. Fires `ready` and `error`.
 */
export declare class EddyFluidElement extends HTMLElement {
  readonly fluid: EddyFluid | null;
  readonly ready: Promise<EddyFluid>;
}

declare global {
  interface HTMLElementTagNameMap {
    "eddy-fluid": EddyFluidElement;
  }
}
