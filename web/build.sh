#!/usr/bin/env bash
# Builds the browser version of eddy's viewer into web/site/, a static site: index.html, the
# JavaScript glue from wasm-bindgen and the .wasm. Serve it and open it in a WebGPU browser:
#
#   web/build.sh && python3 -m http.server -d web/site 8000    # then http://localhost:8000
#
# Needs the wasm target (`rustup target add wasm32-unknown-unknown`) and wasm-bindgen-cli at the
# exact version of the wasm-bindgen crate in Cargo.lock (`cargo install wasm-bindgen-cli
# --version =X`); this script says which. EDDY_WASM_OPT=1 runs binaryen's wasm-opt -Os on the
# .wasm (see below).
set -euo pipefail
cd "$(dirname "$0")/.."

. web/wasm-tools.sh
require_wasm_tools web/build.sh

cargo build --release --target wasm32-unknown-unknown -p eddy-web
rm -rf web/site
mkdir -p web/site
wasm-bindgen --target web --no-typescript --out-dir web/site target/wasm32-unknown-unknown/release/eddy_web.wasm
cp web/index.html web/site/
wasm=web/site/eddy_web_bg.wasm
echo "web/build.sh: $wasm is $(stat -c %s "$wasm") bytes"
# wasm-opt is opt-in: Debian 12's binaryen (108) shrinks the module to 4.8 MB but breaks it
# (the page fails with "WebAssembly.Table.set(): Argument 1 is invalid for table").
if [ "${EDDY_WASM_OPT:-0}" = 1 ]; then
    wasm-opt -Os --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
        --enable-mutable-globals --enable-reference-types --enable-multivalue "$wasm" -o "$wasm.opt"
    mv "$wasm.opt" "$wasm"
    echo "web/build.sh: after wasm-opt -Os ($(wasm-opt --version)): $(stat -c %s "$wasm") bytes"
fi
echo "web/build.sh: built web/site; serve it with: python3 -m http.server -d web/site 8000"
