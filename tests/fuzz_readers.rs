//! Fuzzing the three readers: `.npz` states, PNG scenes and TOML scripts, each fed
//! inputs that proptest generates from valid files (bytes replaced, inserted, removed, the file
//! cut short) and, for `.npz`, archives built around `.npy` headers that say anything (dtypes,
//! ranks up to 3, sides up to 2^20). Every input must give a state or an error, never a panic,
//! and the memory a reader allocates while reading one input stays under its ceiling:
//! `4 x DEFLATE_RATIO x` the input's length plus 16 MiB. (The readers refuse a header that
//! declares more than its stored bytes could decompress to, 1032:1 at best for deflate; a valid
//! image decodes into a few buffers of that size, hence the 4.)
//!
//! 256 cases per reader by default, seconds in all; `PROPTEST_CASES=100000` fuzzes for longer.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::files::{npy, stored_zip};
use eddy_fluid::model::AnyState;
use eddy_fluid::scene::{Colours, Scene};
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the bytes allocated now and the most since the last reset (this test binary holds a
/// single `#[test]`, so nothing else allocates meanwhile).
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            if new_size > layout.size() {
                let now = NOW.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                NOW.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `read` and gives the most memory it had allocated at once beyond what was allocated
/// before, bytes.
fn peak_of<T>(read: impl FnOnce() -> T) -> (T, usize) {
    let before = NOW.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let out = read();
    (out, PEAK.load(Ordering::SeqCst).saturating_sub(before))
}

/// Deflate's best compression, 1032:1 (RFC 1951: a 258-byte match in about two bits), written
/// here rather than read from eddy, whose limits are what is being tested.
const DEFLATE_BEST: usize = 1032;

/// The most a reader may allocate for an input of `len` bytes.
fn ceiling(len: usize) -> usize {
    4 * DEFLATE_BEST * len + (16 << 20)
}

/// An edit of a valid file: replace, insert or remove bytes at fractions of its length, then cut
/// it at a fraction (1.0: not cut).
#[derive(Clone, Debug)]
enum Edit {
    Replace(f64, u8),
    Insert(f64, Vec<u8>),
    Remove(f64, usize),
}

fn edits() -> impl Strategy<Value = (Vec<Edit>, f64)> {
    let edit = prop_oneof![
        (0.0..1.0f64, any::<u8>()).prop_map(|(at, b)| Edit::Replace(at, b)),
        (0.0..1.0f64, prop::collection::vec(any::<u8>(), 1..16)).prop_map(|(at, b)| Edit::Insert(at, b)),
        (0.0..1.0f64, 1..64usize).prop_map(|(at, n)| Edit::Remove(at, n)),
    ];
    (prop::collection::vec(edit, 0..6), prop_oneof![Just(1.0), 0.0..1.0f64])
}

fn apply(mut bytes: Vec<u8>, (edits, cut): &(Vec<Edit>, f64)) -> Vec<u8> {
    for e in edits {
        let at = |f: f64| ((f * bytes.len() as f64) as usize).min(bytes.len().saturating_sub(1));
        match e {
            Edit::Replace(f, b) if !bytes.is_empty() => {
                let i = at(*f);
                bytes[i] = *b;
            }
            Edit::Insert(f, b) => {
                let i = at(*f);
                bytes.splice(i..i, b.iter().copied());
            }
            Edit::Remove(f, n) if !bytes.is_empty() => {
                let i = at(*f);
                bytes.drain(i..(i + n).min(bytes.len()));
            }
            _ => {}
        }
    }
    bytes.truncate((*cut * bytes.len() as f64).ceil() as usize);
    bytes
}

/// Valid states of every model, as eddy saves them.
fn valid_states() -> Vec<Vec<u8>> {
    let states = [
        AnyState::Water(common::random_water(12, 9, 3, 0.1)),
        AnyState::Smoke(common::random_smoke_staggered(12, 9, 3, 0.1)),
        AnyState::Gas(common::random_gas(12, 9, 3, 0.1)),
    ];
    states.iter().map(|s| s.to_npz_bytes(7, None).unwrap()).collect()
}

/// A valid PNG scene: walls, water and a source.
fn valid_png() -> Vec<u8> {
    let img = image::RgbImage::from_fn(14, 10, |x, y| match (x + y) % 5 {
        0 => image::Rgb([0, 0, 0]),
        1 => image::Rgb([0, 0, 255]),
        2 => image::Rgb([255, 0, 0]),
        _ => image::Rgb([255, 255, 255]),
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// The shipped example scripts.
fn valid_scripts() -> Vec<String> {
    [
        "u-tube.toml",
        "smoke-walls.toml",
        "smoke-bodies.toml",
        "smoke-free-bodies.toml",
        "water-crates.toml",
        "gas-plate.toml",
        "smoke-rotameter.toml",
    ]
    .iter()
    .map(|n| std::fs::read_to_string(format!("{}/examples/scripts/{n}", env!("CARGO_MANIFEST_DIR"))).unwrap())
    .collect()
}

fn check_npz(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let len = bytes.len();
    let (_, peak) = peak_of(|| AnyState::load_npz_bytes(Path::new("fuzz.npz"), bytes, None).map(drop));
    prop_assert!(peak <= ceiling(len), "{len} bytes of .npz took {peak} bytes to read");
    Ok(())
}

/// A state file with edits: loads or is refused, within the ceiling.
fn npz_states_with_edits((which, e): (usize, (Vec<Edit>, f64))) -> Result<(), TestCaseError> {
    check_npz(apply(valid_states()[which].clone(), &e))
}

/// An archive around a `.npy` whose header says anything: any dtype NumPy writes, any rank,
/// sides up to 2^20, with as many data bytes as the case gives, and perhaps a valid `mass`.
fn npz_headers_that_say_anything(
    (name, descr, dims, data, with_mass): (&str, &str, Vec<u64>, usize, bool),
) -> Result<(), TestCaseError> {
    let shape = match dims.len() {
        0 => "()".to_string(),
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut entries = vec![(format!("{name}.npy"), npy(descr, &shape, &vec![0u8; data]))];
    if with_mass && name != "mass" {
        entries.push(("mass.npy".to_string(), npy("<f4", "(3, 4)", &[0u8; 48])));
    }
    let entries: Vec<(&str, Vec<u8>)> = entries.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    check_npz(stored_zip(&entries))
}

/// A PNG scene with edits: reads or is refused, within the ceiling.
fn png_scenes_with_edits(e: (Vec<Edit>, f64)) -> Result<(), TestCaseError> {
    let bytes = apply(valid_png(), &e);
    let len = bytes.len();
    let (_, peak) = peak_of(|| Scene::from_png_bytes(Path::new("fuzz.png"), &bytes, Colours::WithSources).map(drop));
    prop_assert!(peak <= ceiling(len), "{len} bytes of PNG took {peak} bytes to read");
    Ok(())
}

/// A script with edits: parses or is refused with one line, within the ceiling.
fn toml_scripts_with_edits((which, e): (usize, (Vec<Edit>, f64))) -> Result<(), TestCaseError> {
    let bytes = apply(valid_scripts()[which].clone().into_bytes(), &e);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let len = text.len();
    let (parsed, peak) = peak_of(|| eddy_fluid::script::Script::parse(&text, None).map(drop));
    prop_assert!(peak <= ceiling(len), "{len} bytes of script took {peak} bytes to read");
    if let Err(line) = parsed {
        prop_assert!(!line.contains('\n'), "a script error of more than one line: {line}");
    }
    Ok(())
}

/// One test, so that no other test allocates while a read is measured: the four readers'
/// properties run one after the other, each on its own generated cases (proptest shrinks a
/// failure to a small input and prints it).
#[test]
fn the_readers_give_a_state_or_an_error_within_their_memory_ceiling() {
    use proptest::test_runner::TestRunner;
    let config = ProptestConfig { failure_persistence: None, ..ProptestConfig::default() };
    fn report<T: std::fmt::Debug>(what: &str, r: Result<(), proptest::test_runner::TestError<T>>) {
        if let Err(e) = r {
            panic!("{what}: {e}");
        }
    }
    let headers = (
        prop::sample::select(vec!["mass", "density", "velocity", "momentum", "step", "solid", "dye"]),
        prop::sample::select(vec!["<f4", "<f8", "|u1", "|b1", "<i4", "<i8", "<u8", "|O", ">f4", "<c8", "<U4"]),
        prop::collection::vec(0u64..(1 << 20), 0..4),
        0usize..4096,
        any::<bool>(),
    );
    report("npz with edits", TestRunner::new(config.clone()).run(&(0..3usize, edits()), npz_states_with_edits));
    report("npz headers", TestRunner::new(config.clone()).run(&headers, npz_headers_that_say_anything));
    report("png with edits", TestRunner::new(config.clone()).run(&edits(), png_scenes_with_edits));
    report("toml with edits", TestRunner::new(config).run(&(0..2usize, edits()), toml_scripts_with_edits));
    println!("{} cases per reader, each within 4 x 1032 x its length + 16 MiB", ProptestConfig::default().cases);
}
