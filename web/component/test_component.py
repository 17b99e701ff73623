#!/usr/bin/env python3
"""The npm package eddy-fluid in a real browser: installed from its tarball into a fresh folder,
its example pages served from there and opened in a headful Chromium (WebGPU on its SwiftShader
Vulkan; run under `xvfb-run -a`), driven through ChromeDriver (Selenium).

It checks that:
  1. without WebGPU (Chromium without --enable-unsafe-webgpu) `create` rejects with the package's
     one message and the element shows it, with no blank canvas in its place;
  2. the plain page starts a fluid and draws it; the first frame's time after the module loaded
     is printed;
  3. a splat changes the pixels where it lands and not far from it;
  4. a parameter set through the API changes the state as the command line's option does:
     smoke at 64x48 for 20 steps with --buoyancy 3, in the browser and with `eddy run`, agree
     within 1e-3 of the density's largest value (two adapters' rounding over 20 steps), while
     the run without the option differs by far more; a bad value throws eddy's message;
  5. 50 create/destroy cycles leave no WebGPU device alive and grow neither the module's memory
     nor the JS heap (after a collection) by more than 2 MiB;
  6. two elements on one page run apart: each has its own device, and pausing one leaves the
     other stepping;
  7. the canvas follows its size: a narrower canvas gets a narrower drawing buffer and grid;
  8. touch (a touch pointer's drag) pours water;
  9. the React example (bundled with esbuild) and the hero page render, the hero's corner showing
     the page's own background through the transparent canvas.
It prints the frame time of the default smoke at 256x256 and the steps a 60 Hz frame sustains.

Usage: xvfb-run -a python3 web/component/test_component.py PACKAGE.tgz --eddy target/release/eddy
Needs: chromium chromium-driver python3-selenium python3-pil npm (for the package, React, esbuild)
"""

import argparse
import functools
import http.server
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from test_page import FLAGS as PAGE_FLAGS  # noqa: E402 (web/test_page.py, beside this folder)

# The viewer's page test's Chromium (WebGPU on SwiftShader, drawing into canvases on machines
# without a GPU), with the JS heap measurable, collections on request, and touch input.
FLAGS = PAGE_FLAGS + ["--enable-precise-memory-info", "--js-flags=--expose-gc", "--touch-events=enabled"]


SHOTS = None


def keep(driver, name):
    """Saves a screenshot as SHOTS/name.png when --shots is given."""
    if SHOTS:
        shot(driver).save(os.path.join(SHOTS, f"{name}.png"))


def fail(message):
    print(f"test_component: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


START = time.time()


def say(message):
    print(f"test_component: [{time.time() - START:5.1f} s] {message}", flush=True)


def install(tarball, work):
    """A fresh folder with the package installed from its tarball, the examples and the React bundle."""
    with open(os.path.join(work, "package.json"), "w") as f:
        json.dump({"private": True}, f)
    npm = ["npm", "install", "--no-audit", "--no-fund", "--silent"]
    subprocess.run(npm + [os.path.abspath(tarball)], cwd=work, check=True)
    installed = os.path.join(work, "node_modules", "eddy-fluid")
    for name in ["eddy-fluid.js", "eddy-fluid.d.ts", "eddy_component.js", "eddy_component_bg.wasm"]:
        if not os.path.exists(os.path.join(installed, name)):
            fail(f"the installed package has no {name}")
    examples = os.path.join(HERE, "examples")
    for name in os.listdir(examples):
        src = os.path.join(examples, name)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(work, name))
    # A page with the import map and no fluid, where timings are taken with nothing else running.
    with open(os.path.join(work, "blank.html"), "w") as f:
        f.write('<!doctype html><script type="importmap">{ "imports": { "eddy-fluid": '
                '"./node_modules/eddy-fluid/eddy-fluid.js" } }</script><body data-eddy="running"></body>')
    subprocess.run(npm + ["react@18", "react-dom@18", "esbuild@0.24"], cwd=work, check=True)
    react = os.path.join(work, "react")
    subprocess.run(
        [os.path.join(work, "node_modules", ".bin", "esbuild"), "main.jsx", "--bundle", "--format=esm",
         "--jsx=automatic", "--outfile=bundle.js", "--log-level=warning"],
        cwd=react, check=True)
    # wasm-bindgen's loader finds the .wasm beside the module that imports it (new URL(...,
    # import.meta.url)); esbuild does not copy assets, so the page serves it beside the bundle.
    shutil.copy(os.path.join(installed, "eddy_component_bg.wasm"), react)


def serve(folder):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                          ".js": "text/javascript"}

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def chromium(flags):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in flags:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(300)
    return driver


def shot(driver):
    return Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")


def wait_for(driver, script, what, seconds=120):
    deadline = time.time() + seconds
    while True:
        value = driver.execute_script(script)
        if value:
            return value
        if time.time() > deadline:
            fail(f"{what} did not happen in {seconds} s")
        time.sleep(0.2)


def run(driver, body):
    """Runs `body` (the inside of an async JavaScript function) in the page; its return value."""
    script = ("const done = arguments[arguments.length - 1];\n(async () => {\n" + body + "\n})().then(done, "
              "(e) => done({ thrown: String(e && e.message || e) }));")
    value = driver.execute_async_script(script)
    if isinstance(value, dict) and "thrown" in value:
        fail(f"the page threw: {value['thrown']}")
    return value


def started(driver, page):
    driver.get(page)
    state = wait_for(driver, "return document.body.dataset.eddy", f"{page} starting")
    if state != "running":
        fail(f"{page}: {driver.find_element('id', 'status').text if state == 'failed' else state}")


def npz_array(path, name):
    """Array `name` of an .npz (float32, C order) as (shape, list of floats), without NumPy."""
    with zipfile.ZipFile(path) as z:
        data = z.read(f"{name}.npy")
    header_len = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + header_len].decode("latin1")
    shape = tuple(int(s) for s in header.split("'shape': (")[1].split(")")[0].split(",") if s.strip())
    if "'<f4'" not in header or "'fortran_order': False" not in header:
        fail(f"{path}: {name} is not little-endian float32 in C order: {header}")
    body = data[10 + header_len:]
    return shape, list(struct.unpack(f"<{len(body) // 4}f", body))


def without_webgpu(port):
    """Check 1."""
    driver = chromium([f for f in FLAGS if f != "--enable-unsafe-webgpu"])
    try:
        driver.get(f"http://127.0.0.1:{port}/plain.html")
        wait_for(driver, "return document.body.dataset.eddy", "the plain page's verdict without WebGPU", 60)
        status = driver.find_element("id", "status").text
        driver.get(f"http://127.0.0.1:{port}/element.html")
        message = wait_for(driver, """
            const p = document.querySelector('eddy-fluid')?.shadowRoot?.querySelector('p');
            return p && !p.hidden && p.textContent;""", "the element's message without WebGPU", 60)
        unsupported = driver.execute_script(
            "return import('./node_modules/eddy-fluid/eddy-fluid.js').then((m) => m.UNSUPPORTED)")
        if not status.startswith(unsupported) or not message.startswith(unsupported):
            fail(f"without WebGPU: the page says {status!r}, the element {message!r}")
        say(f"without WebGPU: {message[:100]}...")
    finally:
        driver.quit()


def first_frame(driver, port):
    """The first frame's time, on a page with nothing else running: from the module loaded to
    `create` resolving (the frame submitted), and to the GPU having drawn it (the canvas copied
    into a 2D canvas: the copy waits for the frame, and the frame for every pipeline made before
    it), then to a read of the density (which waits for the GPU's queue)."""
    driver.get(f"http://127.0.0.1:{port}/blank.html")
    timing = run(driver, """
        const t0 = performance.now();
        const m = await import('eddy-fluid');
        await m.load();
        const t1 = performance.now();
        const c = document.createElement('canvas');
        c.style.cssText = 'width:256px;height:256px;position:absolute;left:0;top:0';
        document.body.append(c);
        const f = await m.create(c, { resolution: 256, cellSize: 1, autoDemo: false, interactive: false, paused: true });
        const t2 = performance.now();
        const probe = document.createElement('canvas').getContext('2d');
        probe.drawImage(c, 0, 0, 8, 8);
        const lit = probe.getImageData(0, 0, 8, 8).data.some((v, i) => i % 4 !== 3 && v > 40);
        const t3 = performance.now();
        await f.read('density');
        const t4 = performance.now();
        f.destroy();
        c.remove();
        return { load: t1 - t0, submitted: t2 - t1, drawn: t3 - t1, read: t4 - t1, lit, total: t3 - t0 };""")
    say(f"first frame of smoke at 256x256: module loaded (and WebGPU started) in {timing['load']:.0f} ms; the frame submitted "
        f"{timing['submitted']:.0f} ms after, drawn {timing['drawn']:.0f} ms after (it shows the plume's "
        f"source: {timing['lit']}), a read of the density back {timing['read']:.0f} ms after; "
        f"{timing['total']:.0f} ms from the import to the frame drawn")


def plain_page(driver, port):
    """Checks 2, 3 and 7 on the plain page."""
    started(driver, f"http://127.0.0.1:{port}/plain.html")
    time.sleep(3)
    keep(driver, "plain")
    # 3: a splat, paused, where the plume is not.
    driver.execute_script("fluid.pause()")
    time.sleep(0.3)
    rect = driver.execute_script(
        "const r = document.getElementById('fluid').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    at = (rect[2] * 0.2, rect[3] * 0.3)
    far = (rect[2] * 0.8, rect[3] * 0.3)
    before = shot(driver)
    driver.execute_script(f"fluid.splat({{ x: {at[0]}, y: {at[1]}, radius: 24, color: '#ff2020' }})")
    time.sleep(0.3)
    after = shot(driver)
    px = lambda img, p: img.getpixel((int(rect[0] + p[0]), int(rect[1] + p[1])))
    b, a = px(before, at), px(after, at)
    if not (a[0] > b[0] + 60 and a[0] > a[2] + 60):
        fail(f"the splat at {at} did not turn it red: {b} -> {a}")
    if px(before, far) != px(after, far):
        fail(f"a splat at {at} changed a pixel far from it at {far}: {px(before, far)} -> {px(after, far)}")
    say(f"a splat turned its pixel {b} -> {a}; far away it stayed {px(after, far)}")

    # 7: the canvas follows its size.
    grid = driver.execute_script("return fluid.grid")
    driver.execute_script("document.getElementById('fluid').style.width = '50vw'")
    wait_for(driver, """const c = document.getElementById('fluid');
        return c.width === Math.round(c.clientWidth * devicePixelRatio) && fluid.grid[0] < %d""" % grid[0],
             "the canvas and grid following a narrower canvas", 60)
    say(f"resized: grid {grid} -> {driver.execute_script('return fluid.grid')}")


def same_as_the_command(driver, port, eddy, work):
    """Check 4: a parameter set through the API against `eddy run` with the option."""
    driver.get(f"http://127.0.0.1:{port}/blank.html")
    density = run(driver, """
        const m = await import('eddy-fluid');
        const c = document.createElement('canvas');
        c.style.cssText = 'width:64px;height:48px;position:absolute;left:0;top:0';
        document.body.append(c);
        const f = await m.create(c, { model: 'smoke', cellSize: 1, autoDemo: false, interactive: false, paused: true });
        let refused = '';
        try { f.set({ buoyancy: 'lots' }); } catch (e) { refused = e.message; }
        const changed = f.set({ buoyancy: 3 });
        f.step(20);
        const d = Array.from(await f.read('density'));
        return { grid: f.grid, refused, changed, density: d, steps: f.steps };""")
    if density["grid"] != [64, 48] or density["steps"] != 20:
        fail(f"the comparison run is {density['grid']} at step {density['steps']}, not 64x48 at 20")
    if "lots" not in density["refused"] or "number" not in density["refused"]:
        fail(f"a bad value was not refused with eddy's message: {density['refused']!r}")
    runs = {}
    for name, extra in [("buoyancy", ["--buoyancy", "3"]), ("default", [])]:
        out = os.path.join(work, f"{name}.npz")
        subprocess.run([eddy, "run", "--mode", "smoke", "--size", "64x48", "--steps", "20", "--save", out] + extra,
                       check=True, capture_output=True)
        shape, values = npz_array(out, "density")
        if shape != (48, 64):
            fail(f"eddy run saved density of shape {shape}")
        runs[name] = values
    largest = max(abs(v) for v in runs["buoyancy"])
    diff = lambda xs: max(abs(a - b) for a, b in zip(xs, density["density"])) / largest
    same, other = diff(runs["buoyancy"]), diff(runs["default"])
    if same > 1e-3 or other < 10 * 1e-3:
        fail(f"set({{buoyancy: 3}}) against eddy run: {same:.2e} of the largest density apart with "
             f"--buoyancy 3 (at most 1e-3), {other:.2e} without it (at least 1e-2)")
    say(f"set({{buoyancy: 3}}) ({density['changed']}): {same:.1e} of the largest density ({largest:.3f}) from "
        f"`eddy run --buoyancy 3`, {other:.1e} from the run without; a bad value: {density['refused']!r}")


def hash_as_the_command(driver, port, eddy):
    """Check 4b: fixed-point water's state hash, sleeping, in Chromium against `eddy run`'s."""
    driver.get(f"http://127.0.0.1:{port}/blank.html")
    got = run(driver, """
        const m = await import('eddy-fluid');
        const c = document.createElement('canvas');
        c.style.cssText = 'width:96px;height:64px;position:absolute;left:0;top:0';
        document.body.append(c);
        const f = await m.create(c, { model: 'water', scene: 'basin', cellSize: 1, autoDemo: false,
                                      interactive: false, paused: true, sleep: true,
                                      params: { arithmetic: 'fixed' } });
        f.step(500);
        const hash = await f.stateHash();
        const sleeping = f.sleep;
        f.setSleep(false);
        let refused = '';
        try { f.setSleep('yes'); } catch (e) { refused = e.message; }
        f.setModel('smoke');
        const smoke = await f.stateHash();
        return { grid: f.grid, hash, sleeping, awake: f.sleep, refused, smoke };""")
    out = subprocess.run([eddy, "run", "--mode", "water", "--scene", "basin", "--size", "96x64", "--steps", "500",
                          "--arithmetic", "fixed"], check=True, capture_output=True, text=True)
    want = next(l.split()[2] for l in (out.stdout + out.stderr).splitlines() if l.startswith("state hash "))
    if got["hash"] != want:
        fail(f"fixed-point water's hash after 500 steps in Chromium is {got['hash']}, eddy run's {want}")
    smoke = got["smoke"]
    if not isinstance(smoke, str) or len(smoke) != 16 or smoke == got["hash"]:
        fail(f"smoke's state hash is {smoke!r}: 16 hex digits, not the water's {got['hash']}")
    if not got["sleeping"] or got["awake"] or "true or false" not in got["refused"]:
        fail(f"sleep / setSleep / stateHash: {got}")
    say(f"fixed-point water, sleeping, 500 steps: hash {got['hash']} in Chromium, the same as `eddy run`'s")


def hostile(driver):
    """Bad input, as a hostile page would give it: each refused with a message naming what was
    wrong, and a fluid made afterwards (and the one already there) unharmed."""
    r = run(driver, """
        const m = await import('eddy-fluid');
        const c = document.createElement('canvas');
        c.style.cssText = 'width:64px;height:48px;position:absolute;left:0;top:0';
        document.body.append(c);
        const refused = async (what, f) => { try { await f(); return what + ': accepted'; } catch (e) { return what + ': ' + e.message; } };
        const out = [];
        for (const [what, options] of [
            ['unknown option', { colour: '#fff' }], ['resolution 0', { resolution: 0 }],
            ['resolution NaN', { resolution: NaN }], ['cellSize -1', { cellSize: -1 }],
            ['stepsPerFrame 1.5', { stepsPerFrame: 1.5 }], ['colors red', { colors: ['red'] }],
            ['colors empty', { colors: [] }], ['params a list', { params: [1] }],
            ['model lava', { model: 'lava' }], ['scene of another model', { model: 'water', scene: 'plume' }],
            ['a bad parameter value', { params: { vorticity: 'x' } }], ['an unknown parameter', { params: { vortex: 1 } }],
            ['look shiny', { look: 'shiny' }], ['bloom 9', { bloom: 9 }],
        ]) out.push(await refused(what, () => m.create(c, options)));
        const f = await m.create(c, { model: 'smoke', cellSize: 1, autoDemo: false, paused: true });
        out.push(await refused('splat at NaN', () => f.splat({ x: NaN, y: 3 })));
        out.push(await refused('splat radius -2', () => f.splat({ x: 3, y: 3, radius: -2 })));
        out.push(await refused('splat colour', () => f.splat({ x: 3, y: 3, color: 'blue' })));
        out.push(await refused('read a field smoke has not', () => f.read('mass')));
        out.push(await refused('set null', () => f.set(null)));
        out.push(await refused('setModel lava', () => f.setModel('lava')));
        out.push(await refused('reset to a preset of another model', () => f.reset('basin')));
        out.push(await refused('setLook lit', () => f.setLook('lit')));
        f.step(2);
        const after = { model: f.model, steps: f.steps, grid: f.grid, density: (await f.read('density')).length };
        f.destroy();
        c.remove();
        return { out, after };""")
    want = {
        "unknown option": 'no option "colour"', "resolution 0": "resolution is 0; it takes a whole number from 8 to 2048",
        "resolution NaN": "resolution is NaN", "cellSize -1": "cellSize is -1", "stepsPerFrame 1.5": "a whole number",
        "colors red": 'colour "red" is not #rrggbb', "colors empty": "colors is []", "params a list": "params is [1]",
        "model lava": 'no model "lava"; the models are water, smoke, gas',
        "scene of another model": "plume is a smoke preset; water's presets are",
        "a bad parameter value": 'vorticity: "x" is not a number', "an unknown parameter": 'smoke has no parameter "vortex"',
        "splat at NaN": "finite numbers", "splat radius -2": "radius above 0", "splat colour": 'colour "blue"',
        "read a field smoke has not": 'smoke has no field "mass"; its fields: density', "set null": "set takes { name: value",
        "setModel lava": 'no model "lava"', "reset to a preset of another model": "basin is a water preset",
        "look shiny": 'look is "shiny"; it takes "styled" or "map"', "bloom 9": "bloom is 9; it takes a number from 0 to 4",
        "setLook lit": 'look is "lit"',
    }
    for line in r["out"]:
        what, _, message = line.partition(": ")
        if want[what] not in message:
            fail(f"{what}: {message!r} (wanted it to say {want[what]!r})")
    if r["after"] != {"model": "smoke", "steps": 2, "grid": [64, 48], "density": 64 * 48}:
        fail(f"after the refusals the fluid is {r['after']}")
    say(f"{len(r['out'])} bad inputs refused, each naming what was wrong (e.g. {r['out'][1]!r}); the fluid ran on")


def looks(driver):
    """Each model in its styled look (the default) and in its colour map, the same state drawn
    both ways: the two pictures differ, and the look reads back as set. With --shots, each pair
    side by side (looks-MODEL.png)."""
    for model, steps in (("smoke", 120), ("water", 60), ("gas", 80)):
        styled = run(driver, """
            const m = await import('eddy-fluid');
            const c = document.createElement('canvas');
            c.style.cssText = 'width:240px;height:180px;position:absolute;left:0;top:0';
            document.body.append(c);
            window.__f = await m.create(c, { model: '%s', cellSize: 2, autoDemo: false, paused: true });
            window.__f.step(%d);
            await new Promise((r) => setTimeout(r, 500));
            return window.__f.look;""" % (model, steps))
        pictures = [shot(driver).crop((0, 0, 240, 180))]
        mapped = run(driver, """
            window.__f.setLook('map');
            await new Promise((r) => setTimeout(r, 500));
            return window.__f.look;""")
        pictures.append(shot(driver).crop((0, 0, 240, 180)))
        run(driver, "window.__f.destroy(); document.querySelector('canvas').remove(); window.__f = null;")
        if (styled, mapped) != ("styled", "map"):
            fail(f"{model}: the looks read back as {styled!r} then {mapped!r}")
        differ = sum(1 for a, b in zip(pictures[0].getdata(), pictures[1].getdata()) if max(abs(x - y) for x, y in zip(a, b)) > 24)
        if differ < 240 * 180 // 10:
            fail(f"{model}: the styled look and the map differ in only {differ} pixels")
        if SHOTS:
            pair = Image.new("RGB", (490, 180), "white")
            pair.paste(pictures[0], (0, 0))
            pair.paste(pictures[1], (250, 0))
            pair.save(os.path.join(SHOTS, f"looks-{model}.png"))
        say(f"{model}: styled and map drawn from one state, {differ} of {240 * 180} pixels differ")


def cycles(driver):
    """Check 5 (on the blank page the last check left)."""
    r = run(driver, """
        const m = await import('eddy-fluid');
        let alive = 0;
        const request = GPUAdapter.prototype.requestDevice;
        GPUAdapter.prototype.requestDevice = async function (...a) { const d = await request.apply(this, a); alive++;
            const destroy = d.destroy.bind(d); d.destroy = () => { alive--; destroy(); }; return d; };
        const wasm = await m.load();
        const c = document.createElement('canvas');
        c.style.cssText = 'width:200px;height:150px;position:absolute;left:0;top:0';
        document.body.append(c);
        const measure = async () => { await new Promise((r) => setTimeout(r, 200)); gc(); gc();
            return { memory: wasm.memory.buffer.byteLength, heap: performance.memory.usedJSHeapSize }; };
        // Every model, water most: a create waits while Chromium compiles the last one's
        // pipelines, and water has the fewest. Each is stepped and drawn before it goes.
        const models = ['smoke', 'gas', 'water', 'water', 'water', 'water', 'water', 'water', 'water', 'water'];
        const cycle = async (n) => { for (let i = 0; i < n; i++) {
            const f = await m.create(c, { model: models[i % models.length], resolution: 32 }); f.step(1); f.destroy(); } };
        await cycle(5);
        const start = await measure();
        await cycle(50);
        const end = await measure();
        GPUAdapter.prototype.requestDevice = request;
        c.remove();
        return { start, end, alive };""")
    grown = {k: r["end"][k] - r["start"][k] for k in ("memory", "heap")}
    if r["alive"] != 0 or grown["memory"] > 2 << 20 or grown["heap"] > 2 << 20:
        fail(f"50 create/destroy cycles: {r['alive']} devices alive, module memory grew {grown['memory']} B, "
             f"JS heap {grown['heap']} B")
    say(f"50 create/destroy cycles: no device alive, module memory {r['start']['memory'] >> 20} MiB "
        f"(+{grown['memory']} B), JS heap +{grown['heap'] / 1024:.0f} KiB")


def two_on_a_page(driver, port):
    """Checks 6 and 8."""
    driver.get(f"http://127.0.0.1:{port}/element.html")
    r = run(driver, """
        const [smoke, water] = [...document.querySelectorAll('eddy-fluid')];
        const [a, b] = await Promise.all([smoke.ready, water.ready]);
        a.pause();
        const s0 = [a.steps, b.steps];
        await new Promise((r) => setTimeout(r, 1500));
        return { same: a === b, models: [a.model, b.model], s0, s1: [a.steps, b.steps] };""")
    if r["same"] or r["models"] != ["smoke", "water"]:
        fail(f"two elements: {r}")
    if r["s1"][0] != r["s0"][0] or r["s1"][1] <= r["s0"][1]:
        fail(f"pausing one element: steps {r['s0']} -> {r['s1']} (smoke must stand, water go on)")
    say(f"two elements: smoke paused at {r['s1'][0]}, water stepped {r['s0'][1]} -> {r['s1'][1]}")
    keep(driver, "element")
    img = shot(driver)
    for name, lit in [("smoke", lambda p: max(p) > 60 and p != (244, 244, 244)), ("water", lambda p: p[2] > p[0] + 40)]:
        box = driver.execute_script(f"const r = document.getElementById('{name}').getBoundingClientRect(); "
                                    "return [r.left, r.top, r.right, Math.min(r.bottom, innerHeight)]")
        seen = [img.getpixel((x, y)) for y in range(int(box[1]) + 2, int(box[3]) - 2, 6)
                for x in range(int(box[0]) + 2, int(box[2]) - 2, 6)]
        if sum(map(lit, seen)) < 20:
            fail(f"the {name} element shows no {name} (of {len(seen)} sampled pixels, {sum(map(lit, seen))} are)")

    # 8: a touch drag over the water element's empty upper air pours water.
    water = driver.execute_script("""const w = document.getElementById('water'); w.fluid.pause();
        const r = w.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]""")
    total = "return document.getElementById('water').fluid.read('mass').then((m) => m.reduce((a, b) => a + b, 0))"
    before = driver.execute_script(total)
    touch = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=touch)
    x0, y0 = int(water[0] + water[2] * 0.3), int(water[1] + water[3] * 0.15)
    actions.pointer_action.move_to_location(x0, y0).pointer_down()
    for i in range(1, 9):
        actions.pointer_action.move_to_location(x0 + i * 20, y0)
    actions.pointer_action.pointer_up()
    actions.perform()
    time.sleep(0.5)
    after = driver.execute_script(total)
    if not after > before + 1:
        fail(f"a touch drag over the water did not pour: total mass {before:.2f} -> {after:.2f}")
    say(f"a touch drag poured water: total mass {before:.1f} -> {after:.1f}")


def react_and_hero(driver, port):
    """Check 9."""
    driver.get(f"http://127.0.0.1:{port}/react/index.html")
    wait_for(driver, """const c = document.querySelector('canvas'); return c && c.width > 0""", "the React example's canvas")
    time.sleep(2)
    keep(driver, "react")
    img = shot(driver)
    r = driver.execute_script("const r = document.querySelector('canvas').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    drawn = sum(1 for y in range(int(r[1]), int(r[1] + r[3]), 8) for x in range(int(r[0]), int(r[0] + r[2]), 8)
                if max(img.getpixel((x, y))) > 40)
    if drawn < 10:
        fail("the React example's canvas shows nothing")
    say(f"the React example draws ({drawn} sampled pixels lit)")

    started(driver, f"http://127.0.0.1:{port}/hero.html")
    time.sleep(4)
    # Paused before the screenshots: a full-window canvas's frames are slow on software WebGPU.
    driver.execute_script("fluid.pause()")
    time.sleep(0.5)
    keep(driver, "hero")
    img = shot(driver)
    corner = img.getpixel((5, 5))
    # The page's gradient starts at #0b1026: the canvas is transparent where there is no smoke.
    if max(abs(a - b) for a, b in zip(corner, (0x0b, 0x10, 0x26))) > 12:
        fail(f"the hero's corner is {corner}, not the page's background #0b1026 through the canvas")
    say(f"the hero's corner shows the page through the canvas: {corner}")


def speed(driver):
    """The default smoke at 256x256: frame time at one step a frame, and steps a 60 Hz frame holds."""
    r = run(driver, """
        const m = await import('eddy-fluid');
        const c = document.createElement('canvas');
        c.style.cssText = 'width:256px;height:256px;position:absolute;left:0;top:0';
        document.body.append(c);
        const f = await m.create(c, { resolution: 256, cellSize: 1, autoDemo: false, interactive: false });
        const frames = [];
        await new Promise((resolve) => { let last = 0; const tick = (t) => {
            if (last) frames.push(t - last); last = t; frames.length < 20 ? requestAnimationFrame(tick) : resolve(); };
            requestAnimationFrame(tick); });
        f.pause();
        await f.read('density');
        const t0 = performance.now();
        f.step(20);
        await f.read('density');
        const perStep = (performance.now() - t0) / 20;
        const [grid, adapter] = [f.grid, f.adapter];
        f.destroy();
        c.remove();
        frames.sort((a, b) => a - b);
        return { grid, frame: frames[frames.length >> 1], perStep, adapter };""")
    say(f"default smoke {r['grid'][0]}x{r['grid'][1]} on {r['adapter']}: median frame {r['frame']:.1f} ms at one "
        f"step a frame; {r['perStep']:.1f} ms a step, so {16.7 / r['perStep']:.2f} steps a 60 Hz frame")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tarball", help="the package, from web/component/build.sh")
    parser.add_argument("--eddy", required=True, help="the eddy command to compare with (target/release/eddy)")
    parser.add_argument("--shots", help="save screenshots of the example pages in this folder")
    args = parser.parse_args()
    global SHOTS
    SHOTS = args.shots
    work = tempfile.mkdtemp(prefix="eddy-component-")
    try:
        install(args.tarball, work)
        port = serve(work)
        without_webgpu(port)
        driver = chromium(FLAGS)
        try:
            first_frame(driver, port)
            same_as_the_command(driver, port, os.path.abspath(args.eddy), work)
            hash_as_the_command(driver, port, os.path.abspath(args.eddy))
            hostile(driver)
            looks(driver)
            cycles(driver)
            speed(driver)
            plain_page(driver, port)
            two_on_a_page(driver, port)
            react_and_hero(driver, port)
        finally:
            driver.quit()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    say("passed")


if __name__ == "__main__":
    main()
