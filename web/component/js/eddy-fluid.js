// eddy-fluid: eddy's fluids (water, smoke, gas) in any web page, on WebGPU.
//
//   import { create, supported } from "eddy-fluid";
//   const fluid = await create(document.querySelector("canvas"), { model: "smoke" });
//
// or, with no script of your own beyond the import, the custom element:
//
//   <script type="module" src="https://unpkg.com/eddy-fluid"></script>
//   <eddy-fluid model="smoke" transparent style="width: 100%; height: 400px"></eddy-fluid>
//
// One Fluid is one simulation in one canvas, with its own WebGPU device: two on a page share
// nothing but the module's code. Coordinates are CSS pixels from the canvas's top-left corner
// unless `units: "cells"` says cells ((column, row), row 0 at the top). The types and units of
// every option are in eddy-fluid.d.ts; the book's "In a web page" chapter has the guide.

import init, { Fluid as Wasm } from "./eddy_component.js";

/** The message shown where WebGPU is missing. */
export const UNSUPPORTED =
  "This page draws its fluid with WebGPU, which this browser does not offer. " +
  "Use a current Chrome, Edge or Safari, or Firefox 141 or later (or turn WebGPU on in its settings).";

let loading = null;

/**
 * Loads and compiles the module once for the page; `create` calls it. Meanwhile it asks for a
 * WebGPU device and lets it go: the browser starts its GPU process while the module downloads,
 * so the first `create` does not wait for that (Chromium: 0.2 to 0.4 s). The module's exports
 * are what it resolves to.
 */
export function load(moduleUrl) {
  loading ??= Promise.all([init(moduleUrl ? { module_or_path: moduleUrl } : {}), warmUp()]).then(([exports]) => exports);
  return loading;
}

/** A WebGPU device asked for and destroyed at once; never fails (create says what is missing). */
async function warmUp() {
  try {
    const adapter = supported() ? await navigator.gpu.requestAdapter() : null;
    (await adapter?.requestDevice())?.destroy();
  } catch {
    // create reports a missing or failing adapter itself.
  }
}

/** Whether this browser offers WebGPU at all (`navigator.gpu`); `create` says more when it fails. */
export function supported() {
  return typeof navigator !== "undefined" && !!navigator.gpu;
}

const DEFAULTS = {
  model: "smoke",
  scene: "",
  resolution: 256,
  cellSize: 4,
  transparent: false,
  look: "styled",
  bloom: 0.3,
  interactive: true,
  autoDemo: true,
  autoDemoDelay: 2500,
  autoSpeed: 1,
  stepsPerFrame: 1,
  splatRadius: 0,
  force: 30,
  colors: ["#5227ff", "#ff9ffc", "#b19eef"],
  params: {},
  paused: false,
  sleep: false,
  seed: 1,
  moduleUrl: undefined,
};

/** Each numeric option's range: [least, most, whole numbers only]. */
const RANGES = {
  resolution: [8, 2048, true],
  cellSize: [0.25, 64, false],
  autoDemoDelay: [0, 3.6e6, false],
  autoSpeed: [0, 100, false],
  stepsPerFrame: [0, 64, true],
  splatRadius: [0, 2048, false],
  force: [0, 1e4, false],
  bloom: [0, 4, false],
  seed: [0, 2 ** 32 - 1, true],
};

/** The looks: "styled" (smoke lit and shaded, water as a surface with foam, gas as schlieren) and "map" (the field's colour map). */
const LOOKS = ["styled", "map"];

/** Refuses an option eddy-fluid does not have, or a value outside its range, naming both. */
function check(options) {
  for (const key of Object.keys(options)) {
    if (!(key in DEFAULTS)) {
      throw new TypeError(`eddy-fluid: no option ${JSON.stringify(key)}; the options are ${Object.keys(DEFAULTS).join(", ")}`);
    }
  }
  for (const [key, [least, most, whole]] of Object.entries(RANGES)) {
    if (!(key in options)) continue;
    const v = options[key];
    if (typeof v !== "number" || !Number.isFinite(v) || v < least || v > most || (whole && !Number.isInteger(v))) {
      const shown = typeof v === "number" ? String(v) : JSON.stringify(v);
      throw new RangeError(`eddy-fluid: ${key} is ${shown}; it takes ${whole ? "a whole number" : "a number"} from ${least} to ${most}`);
    }
  }
  if ("look" in options && !LOOKS.includes(options.look)) {
    throw new RangeError(`eddy-fluid: look is ${JSON.stringify(options.look)}; it takes ${LOOKS.map((l) => JSON.stringify(l)).join(" or ")}`);
  }
  if ("colors" in options && (!Array.isArray(options.colors) || options.colors.length === 0)) {
    throw new TypeError(`eddy-fluid: colors is ${JSON.stringify(options.colors)}; it takes a list of "#rrggbb"`);
  }
  if ("params" in options && (typeof options.params !== "object" || options.params === null || Array.isArray(options.params))) {
    throw new TypeError(`eddy-fluid: params is ${JSON.stringify(options.params)}; it takes { name: value, ... }`);
  }
  (options.colors ?? []).forEach(rgb);
}

/** `#rrggbb` (or `#rgb`) as [r, g, b], each 0 to 1. */
function rgb(colour) {
  let hex = String(colour).trim().replace(/^#/, "");
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  if (!/^[0-9a-fA-F]{6}$/.test(hex)) {
    throw new TypeError(`eddy-fluid: colour ${JSON.stringify(colour)} is not #rrggbb`);
  }
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
}

/** The grid for a canvas of `css` CSS pixels: one cell per `cellSize` device pixels, the longer side at most `resolution`. */
function gridFor(css, ratio, o) {
  const device = [css[0] * ratio, css[1] * ratio];
  let cells = device.map((d) => Math.max(8, Math.round(d / o.cellSize)));
  const longest = Math.max(...cells);
  const cap = o.resolution;
  if (longest > cap) cells = cells.map((c) => Math.max(8, Math.round((c * cap) / longest)));
  return cells;
}

/**
 * A fluid simulation drawn into a canvas. Made by `create`; an EventTarget that fires
 * `error` (detail: { message }) when a frame fails.
 */
export class EddyFluid extends EventTarget {
  #wasm;
  #canvas;
  #o;
  #frame = 0;
  #running = false;
  #userPaused = false;
  #still = false;
  #hidden = false;
  #lastPointer = -Infinity;
  #pointer = null;
  #colour = 0;
  #demoT = 0;
  #demoAt = null;
  #cleanup = [];
  #resizeTimer = 0;
  #destroyed = false;

  constructor(wasm, canvas, options) {
    super();
    this.#wasm = wasm;
    this.#canvas = canvas;
    this.#o = options;
    this.#userPaused = !!options.paused;
    const reduced = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");
    if (reduced?.matches) {
      // Nothing moves by itself: no demo, and the fluid stands still until a pointer stirs it.
      this.#o.autoDemo = false;
      this.#still = true;
    }
    this.#listen();
    this.#wasm.frame(0);
    this.#schedule();
  }

  /** The model shown: "water", "smoke" or "gas". */
  get model() {
    return this.#wasm.model;
  }

  /** The grid, [width, height] cells. */
  get grid() {
    return Array.from(this.#wasm.grid);
  }

  /** Steps taken since the scene started. */
  get steps() {
    return this.#wasm.steps;
  }

  /** The WebGPU adapter it runs on. */
  get adapter() {
    return this.#wasm.adapter;
  }

  /** Whether the page shows through where the fluid is empty. */
  get transparent() {
    return this.#wasm.transparent;
  }

  /** Whether it is stepping now (not paused, the page visible). */
  get running() {
    return this.#running;
  }

  /** The current model's parameters, name to value as the command line writes them. */
  get params() {
    return Object.fromEntries(this.#wasm.params());
  }

  /**
   * Sets parameters by name, as `eddy run`'s options (`{ "vorticity": 0.3 }`); checked together,
   * so a bad value throws the command line's message and nothing changes. Returns the changes.
   */
  set(params) {
    if (typeof params !== "object" || params === null || Array.isArray(params)) {
      throw new TypeError(`eddy-fluid: set takes { name: value, ... }, not ${JSON.stringify(params)}`);
    }
    const names = Object.keys(params);
    return this.#wasm.set(names, names.map((n) => String(params[n])));
  }

  /** Whether still water sleeps (only the tiles where something can change are stepped). */
  get sleep() {
    return this.#wasm.sleep;
  }

  /** Lets still water sleep (true) or steps every cell (false): the same masses to the bit either way. */
  setSleep(on) {
    if (typeof on !== "boolean") throw new TypeError(`eddy-fluid: setSleep takes true or false, not ${JSON.stringify(on)}`);
    this.#wasm.set_sleep(on);
    this.#o.sleep = on;
  }

  /** Resolves to the state hash, 16 hex digits (as `eddy run` prints it): the same exactly when the state's bits are. */
  stateHash() {
    return this.#wasm.state_hash();
  }

  /** The look drawn: "styled" or "map". */
  get look() {
    return this.#wasm.look;
  }

  /** Draws with `look` from now on: "styled" (made for people) or "map" (the field's colour map). */
  setLook(look) {
    check({ look });
    this.#o.look = look;
    this.#wasm.set_look(look);
    this.#redraw();
  }

  /** Sets the styled smoke's glow, 0 (none) to 4. */
  setBloom(bloom) {
    check({ bloom });
    this.#o.bloom = bloom;
    this.#wasm.set_bloom(bloom);
    this.#redraw();
  }

  /** Makes `model` current, started on its default scene at the present grid. */
  setModel(model) {
    this.#wasm.set_model(String(model));
    this.#redraw();
  }

  /** Starts the scene again (parameters kept); with `scene`, that preset instead. */
  reset(scene) {
    if (scene === undefined) this.#wasm.reset();
    else this.#restart(String(scene));
    this.#redraw();
  }

  /** Takes `steps` steps now, whether running or paused, and draws. */
  step(steps = 1) {
    this.#wasm.frame(Math.max(0, Math.floor(steps)));
  }

  /** Stops stepping; the last frame stays. */
  pause() {
    this.#userPaused = true;
    this.#schedule();
  }

  /** Steps again after `pause`. */
  resume() {
    this.#userPaused = false;
    this.#schedule();
  }

  /**
   * A splat at `x, y` of `radius` and `color` (smoke's dye, "#rrggbb"), moving at `dx, dy` (in
   * the same units) times `force` per time unit. Water pours, gas is pushed.
   */
  splat({ x, y, dx = 0, dy = 0, radius, color, units = "css" }) {
    const [cx, cy] = this.#toCells(x, y, units);
    const scale = units === "cells" ? 1 : 1 / this.#cssPerCell();
    const r = radius === undefined ? this.#radius() : radius * scale;
    const [red, green, blue] = rgb(color ?? this.#nextColour());
    this.#wasm.splat(cx, cy, dx * scale * this.#o.force, dy * scale * this.#o.force, r, red, green, blue);
    if (!this.#running) this.#redraw();
  }

  /** One move of the fluid tool from `from` to `to` ([x, y] each), as a drag in eddy's viewer; `erase` clears. */
  stroke(from, to, { erase = false, units = "css" } = {}) {
    const a = this.#toCells(from[0], from[1], units);
    const b = this.#toCells(to[0], to[1], units);
    this.#wasm.stroke(a[0], a[1], b[0], b[1], erase);
    if (!this.#running) this.#redraw();
  }

  /**
   * Reads field `name` back from the GPU: a Float32Array of H * W values, row 0 at the top
   * (`grid` is [W, H]). Water: mass; smoke: density, temperature, pressure, divergence,
   * velocity_x, velocity_y; gas: density, momentum_x, momentum_y.
   */
  read(name) {
    return this.#wasm.read(String(name));
  }

  /** Follows the canvas's size now (it also follows by itself, through a ResizeObserver). */
  resize() {
    const c = this.#canvas;
    const ratio = globalThis.devicePixelRatio || 1;
    const css = [Math.max(1, c.clientWidth), Math.max(1, c.clientHeight)];
    const pixels = css.map((v) => Math.max(1, Math.round(v * ratio)));
    if (c.width !== pixels[0] || c.height !== pixels[1]) {
      c.width = pixels[0];
      c.height = pixels[1];
    }
    this.#wasm.resize(pixels[0], pixels[1]);
    const want = gridFor(css, ratio, this.#o);
    const have = this.#wasm.grid;
    if (want[0] !== have[0] || want[1] !== have[1]) this.#restart(this.#o.scene, want);
    this.#redraw();
  }

  /** Stops, removes its listeners and frees every GPU resource (its device is destroyed). */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    cancelAnimationFrame(this.#frame);
    clearTimeout(this.#resizeTimer);
    for (const undo of this.#cleanup) undo();
    this.#cleanup = [];
    this.#wasm.destroy();
    this.#wasm = null;
  }

  #restart(scene, grid = this.#wasm.grid) {
    this.#wasm.restart(scene ?? "", grid[0], grid[1]);
  }

  #redraw() {
    if (this.#destroyed) return;
    try {
      this.#wasm.draw();
    } catch (e) {
      this.#fail(e);
    }
  }

  #fail(e) {
    this.#userPaused = true;
    this.#schedule();
    this.dispatchEvent(new CustomEvent("error", { detail: { message: e?.message ?? String(e) } }));
  }

  #schedule() {
    const run = !this.#userPaused && !this.#still && !this.#hidden && !this.#destroyed;
    if (run && !this.#running) {
      this.#running = true;
      this.#frame = requestAnimationFrame((t) => this.#tick(t));
    } else if (!run && this.#running) {
      this.#running = false;
      cancelAnimationFrame(this.#frame);
    }
  }

  #tick(time) {
    if (!this.#running) return;
    try {
      this.#demo(time);
      this.#wasm.frame(Math.max(0, Math.floor(this.#o.stepsPerFrame)));
    } catch (e) {
      this.#fail(e);
      return;
    }
    this.#frame = requestAnimationFrame((t) => this.#tick(t));
  }

  /** The automatic motion: a point on a slow Lissajous curve splatting, while no pointer has moved for `autoDemoDelay` ms. */
  #demo(time) {
    if (!this.#o.autoDemo || time - this.#lastPointer < this.#o.autoDemoDelay) {
      this.#demoAt = null;
      return;
    }
    const [w, h] = this.#wasm.grid;
    this.#demoT += 0.008 * this.#o.autoSpeed;
    const t = this.#demoT;
    const at = [w * (0.5 + 0.35 * Math.sin(t * 1.3)), h * (0.5 + 0.3 * Math.sin(t * 2.1 + 0.7))];
    if (this.#demoAt) {
      const d = [at[0] - this.#demoAt[0], at[1] - this.#demoAt[1]];
      const [r, g, b] = rgb(this.#nextColour(0.02));
      this.#wasm.splat(at[0], at[1], d[0] * this.#o.force, d[1] * this.#o.force, this.#radius(), r, g, b);
    }
    this.#demoAt = at;
  }

  #nextColour(step = 0.15) {
    const colours = this.#o.colors.length ? this.#o.colors : DEFAULTS.colors;
    this.#colour = (this.#colour + step) % colours.length;
    return colours[Math.floor(this.#colour)];
  }

  #radius() {
    if (this.#o.splatRadius > 0) return this.#o.splatRadius;
    const [w, h] = this.#wasm.grid;
    return Math.max(2, Math.min(w, h) * 0.04);
  }

  /** CSS pixels a cell spans in the letterboxed draw: the grid fitted whole into the canvas. */
  #cssPerCell() {
    const [w, h] = this.#wasm.grid;
    const c = this.#canvas;
    return Math.min(c.clientWidth / w, c.clientHeight / h) || 1;
  }

  /** CSS pixels from the canvas's top-left (or cells) to cells, through the letterbox the draw uses. */
  #toCells(x, y, units) {
    if (units === "cells") return [x, y];
    const [w, h] = this.#wasm.grid;
    const c = this.#canvas;
    const scale = this.#cssPerCell();
    const ox = (c.clientWidth - w * scale) / 2;
    const oy = (c.clientHeight - h * scale) / 2;
    return [(x - ox) / scale, (y - oy) / scale];
  }

  #on(target, type, handler, opts) {
    target.addEventListener(type, handler, opts);
    this.#cleanup.push(() => target.removeEventListener(type, handler, opts));
  }

  #listen() {
    const c = this.#canvas;
    if (typeof ResizeObserver !== "undefined") {
      const ro = new ResizeObserver(() => {
        clearTimeout(this.#resizeTimer);
        this.#resizeTimer = setTimeout(() => !this.#destroyed && this.resize(), 100);
      });
      ro.observe(c);
      this.#cleanup.push(() => ro.disconnect());
    }
    if (typeof document !== "undefined") {
      this.#on(document, "visibilitychange", () => {
        this.#hidden = document.visibilityState === "hidden";
        this.#schedule();
      });
    }
    if (!this.#o.interactive) return;
    c.style.touchAction = "none";
    const move = (e) => {
      const r = c.getBoundingClientRect();
      const at = [e.clientX - r.left, e.clientY - r.top];
      const last = this.#pointer;
      this.#pointer = at;
      this.#lastPointer = performance.now();
      if (this.#still) {
        this.#still = false;
        this.#schedule();
      }
      if (!last) return;
      const pressed = e.buttons !== 0 || e.pointerType === "touch";
      const d = [at[0] - last[0], at[1] - last[1]];
      if (this.model === "water") {
        if (pressed) this.stroke(last, at);
      } else if (d[0] !== 0 || d[1] !== 0) {
        this.splat({ x: at[0], y: at[1], dx: d[0], dy: d[1] });
      }
    };
    this.#on(c, "pointermove", move);
    this.#on(c, "pointerdown", (e) => {
      this.#pointer = null;
      move(e);
      if (this.model === "water") {
        const at = this.#pointer;
        this.stroke(at, at);
      }
    });
    this.#on(c, "pointerleave", () => (this.#pointer = null));
    this.#on(c, "pointercancel", () => (this.#pointer = null));
  }
}

/**
 * Starts a fluid in `canvas`. Resolves to an EddyFluid; rejects with an Error whose message says
 * what was wrong (no WebGPU: `UNSUPPORTED`; a bad option or parameter: eddy's message).
 */
export async function create(canvas, options = {}) {
  check(options);
  const o = { ...DEFAULTS, ...options };
  if (!supported()) throw new Error(UNSUPPORTED);
  await load(o.moduleUrl);
  const ratio = globalThis.devicePixelRatio || 1;
  const css = [Math.max(1, canvas.clientWidth || canvas.width), Math.max(1, canvas.clientHeight || canvas.height)];
  canvas.width = Math.max(1, Math.round(css[0] * ratio));
  canvas.height = Math.max(1, Math.round(css[1] * ratio));
  const [w, h] = gridFor(css, ratio, o);
  let wasm;
  try {
    wasm = await Wasm.create(canvas, o.model, o.scene, w, h, !!o.transparent, o.seed >>> 0);
  } catch (e) {
    const message = e?.message ?? String(e);
    throw new Error(/no.*adapter|WebGPU/i.test(message) ? `${UNSUPPORTED} (${message})` : message);
  }
  const names = Object.keys(o.params);
  try {
    wasm.set_look(o.look);
    wasm.set_bloom(o.bloom);
    if (o.sleep) wasm.set_sleep(true);
    if (names.length) wasm.set(names, names.map((n) => String(o.params[n])));
  } catch (e) {
    wasm.destroy();
    throw e;
  }
  return new EddyFluid(wasm, canvas, o);
}

const ATTRIBUTES = {
  model: "model",
  scene: "scene",
  resolution: "resolution",
  "cell-size": "cellSize",
  transparent: "transparent",
  look: "look",
  bloom: "bloom",
  interactive: "interactive",
  "auto-demo": "autoDemo",
  "auto-demo-delay": "autoDemoDelay",
  "auto-speed": "autoSpeed",
  "steps-per-frame": "stepsPerFrame",
  "splat-radius": "splatRadius",
  force: "force",
  colors: "colors",
  params: "params",
  paused: "paused",
  sleep: "sleep",
  seed: "seed",
};

const BOOLEAN = new Set(["transparent", "interactive", "autoDemo", "paused", "sleep"]);

/** The options an `<eddy-fluid>` element's attributes give. */
function optionsOf(element) {
  const o = {};
  for (const [attr, key] of Object.entries(ATTRIBUTES)) {
    const v = element.getAttribute(attr);
    if (v === null) continue;
    if (BOOLEAN.has(key)) o[key] = v !== "false";
    else if (key === "colors") o[key] = v.split(/[\s,]+/).filter(Boolean);
    else if (key === "params") {
      o[key] = Object.fromEntries(
        v.split(/[;\s]+/).filter(Boolean).map((pair) => {
          const [name, value] = pair.split("=");
          return [name.trim(), (value ?? "").trim()];
        }),
      );
    } else if (key === "model" || key === "scene" || key === "look") o[key] = v;
    else o[key] = Number(v);
  }
  return o;
}

/**
 * `<eddy-fluid model="smoke" transparent auto-demo="false" params="vorticity=0.3">`: a fluid
 * filling the element (give it a size). Its `fluid` property is the EddyFluid once `ready`
 * resolves; it fires `ready` and `error` events (detail: { message }); where WebGPU is missing it
 * shows `UNSUPPORTED` in place of the canvas.
 */
export class EddyFluidElement extends (globalThis.HTMLElement ?? class {}) {
  #fluid = null;
  #canvas = null;
  #message = null;
  #starting = null;

  static get observedAttributes() {
    return ["model", "look", "params", "paused", "sleep"];
  }

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML =
      "<style>:host{display:block;position:relative;min-height:64px}" +
      "canvas{position:absolute;inset:0;width:100%;height:100%;display:block}" +
      "p{position:absolute;inset:0;margin:0;padding:1em;font:14px/1.4 system-ui,sans-serif;" +
      "color:#444;background:#f4f4f4;display:flex;align-items:center;justify-content:center;text-align:center}" +
      "p[hidden]{display:none}</style>" +
      "<canvas part=canvas></canvas><p part=message hidden></p>";
    this.#canvas = root.querySelector("canvas");
    this.#message = root.querySelector("p");
  }

  /** The EddyFluid, once started (null before, and after an error). */
  get fluid() {
    return this.#fluid;
  }

  /** Resolves to the EddyFluid when it has started; rejects with its error. */
  get ready() {
    return this.#starting ?? Promise.reject(new Error("eddy-fluid: not connected to a page"));
  }

  connectedCallback() {
    if (this.#starting) return;
    this.#starting = (async () => {
      try {
        // Wait for layout, so that the canvas has its size.
        await new Promise((r) => requestAnimationFrame(r));
        this.#fluid = await create(this.#canvas, optionsOf(this));
        this.#fluid.addEventListener("error", (e) => this.#show(e.detail.message));
        this.dispatchEvent(new CustomEvent("ready"));
        return this.#fluid;
      } catch (e) {
        this.#show(e?.message ?? String(e));
        throw e;
      }
    })();
    this.#starting.catch(() => {});
  }

  disconnectedCallback() {
    this.#fluid?.destroy();
    this.#fluid = null;
    this.#starting = null;
  }

  attributeChangedCallback(name, _old, value) {
    const f = this.#fluid;
    if (!f) return;
    try {
      if (name === "model" && value) f.setModel(value);
      else if (name === "look" && value) f.setLook(value);
      else if (name === "params" && value) f.set(optionsOf(this).params);
      else if (name === "paused") value === null || value === "false" ? f.resume() : f.pause();
      else if (name === "sleep") f.setSleep(value !== null && value !== "false");
    } catch (e) {
      this.#show(e?.message ?? String(e));
    }
  }

  #show(message) {
    this.#message.textContent = message;
    this.#message.hidden = false;
    this.dispatchEvent(new CustomEvent("error", { detail: { message } }));
  }
}

if (globalThis.customElements && !customElements.get("eddy-fluid")) {
  customElements.define("eddy-fluid", EddyFluidElement);
}
