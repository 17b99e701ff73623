# Sourced by web/build.sh and web/component/build.sh, from the repository's root:
# `require_wasm_tools NAME` stops the build, saying what to install, unless wasm-bindgen-cli is at
# the exact version of the wasm-bindgen crate in Cargo.lock and the wasm target is installed.
require_wasm_tools() {
    local want have
    want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
    have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
    if [ "$have" != "$want" ]; then
        echo "$1: needs wasm-bindgen-cli $want (found: ${have:-none}):" >&2
        echo "  cargo install wasm-bindgen-cli --version =$want" >&2
        exit 1
    fi
    if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
        echo "$1: needs the wasm target: rustup target add wasm32-unknown-unknown" >&2
        exit 1
    fi
}
