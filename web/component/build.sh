#!/usr/bin/env bash
# Builds the npm package eddy-fluid (web/component/): the lean wasm module (the simulation and
# its renderers; no egui, no winit, no file formats), wasm-bindgen's loader, the package's own
# JavaScript and types, into web/component/pkg/, then packs it as
# web/component/eddy-fluid-VERSION.tgz (`npm install ./that.tgz` installs it).
#
#   web/component/build.sh            # then see web/component/examples/
#
# Needs the wasm target, wasm-bindgen-cli at the wasm-bindgen crate's version (as web/build.sh)
# and npm (binaryen's wasm-opt comes from npm: Debian 12's version 108 breaks the module).
# Prints the module's size raw, gzip -9 and brotli (quality 11), before and after wasm-opt.
# EDDY_COMPONENT_PROFILE=release builds with the release profile instead of wasm-release (no
# LTO: minutes faster where web/build.sh has built the dependencies, and a larger module; CI
# uses it).
set -euo pipefail
cd "$(dirname "$0")/../.."

. web/wasm-tools.sh
require_wasm_tools web/component/build.sh
if ! command -v npm >/dev/null; then
    echo "web/component/build.sh: needs npm (apt-get install npm)" >&2
    exit 1
fi

profile=${EDDY_COMPONENT_PROFILE:-wasm-release}
cargo build --profile "$profile" --target wasm32-unknown-unknown -p eddy-component
out=web/component/pkg
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" \
    "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/$profile/eddy_component.wasm"
wasm="$out/eddy_component_bg.wasm"

sizes() { # FILE...: bytes raw, gzip -9 and brotli 11 of the files together
    node -e '
        const fs = require("fs"), zlib = require("zlib");
        const all = Buffer.concat(process.argv.slice(1).map((f) => fs.readFileSync(f)));
        const br = zlib.brotliCompressSync(all, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
        const kb = (n) => (n / 1024).toFixed(0) + " KiB";
        console.log(`${kb(all.length)} raw, ${kb(zlib.gzipSync(all, { level: 9 }).length)} gzip, ${kb(br.length)} brotli`);
    ' "$@"
}
echo "web/component/build.sh: module ($profile profile) before wasm-opt: $(sizes "$wasm")"

(cd web/component/tools && npm ci --no-audit --no-fund --silent)
opt=web/component/tools/node_modules/.bin/wasm-opt
"$opt" -Os --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue "$wasm" -o "$wasm.opt"
mv "$wasm.opt" "$wasm"
echo "web/component/build.sh: module after wasm-opt -Os ($("$opt" --version)): $(sizes "$wasm")"

cp web/component/js/eddy-fluid.js web/component/js/eddy-fluid.d.ts web/component/README.md \
    web/component/package.json "$out/"
echo "web/component/build.sh: the package (module and JavaScript): $(sizes "$out"/*.wasm "$out"/*.js)"
(cd "$out" && npm pack --silent --pack-destination .. >/dev/null)
echo "web/component/build.sh: packed $(ls web/component/eddy-fluid-*.tgz)"
