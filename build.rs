//! Empty: eddy's build script exists for its build-dependencies' features (Cargo.toml says why).
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
}
