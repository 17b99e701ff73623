//! Fitting a pass to a device that allows fewer storage textures per stage than it binds.
//!
//! eddy's passes read their inputs through read-only storage textures (faster than sampled
//! loads on llvmpipe, see the README's water notes), and some bind up to 7 storage textures.
//! WebGPU guarantees only 4 per stage (`maxStorageTexturesPerShaderStage`; browsers on software
//! adapters offer no more). A read-only input need not be a storage texture: a sampled texture
//! read with `textureLoad(t, p, 0)` gives the same texel. So where a pass binds more storage
//! textures than the device allows, [`sampled_reads`] rewrites its WGSL (and so the layout
//! reflected from it, [`super::reflect`]): every `texture_storage_2d<F, read>` becomes
//! `texture_2d<T>` (`T` the format's sample type), and every `textureLoad` of one gains the mip
//! level 0. Writes and read-writes
//! stay storage textures, so a pass may write at most the device's limit.

use std::collections::HashMap;

/// How many layout entries are storage textures.
pub fn storage_count(entries: &[wgpu::BindGroupLayoutEntry]) -> u32 {
    entries.iter().filter(|e| matches!(e.ty, wgpu::BindingType::StorageTexture { .. })).count() as u32
}

const READ_TYPE: &str = "texture_storage_2d<";

/// If `source[at..]` starts a read-only storage texture type, its length and the sampled type
/// that replaces it.
fn read_type_at(source: &str, at: usize) -> Option<(usize, String)> {
    let rest = source.get(at..)?.strip_prefix(READ_TYPE)?;
    let close = rest.find('>')?;
    let (format, access) = rest[..close].split_once(',')?;
    if access.trim() != "read" {
        return None;
    }
    let format = format.trim();
    let scalar = if format.ends_with("uint") {
        "u32"
    } else if format.ends_with("sint") {
        "i32"
    } else {
        "f32"
    };
    Some((READ_TYPE.len() + close + 1, format!("texture_2d<{scalar}>")))
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The identifier ending just before `end` (skipping spaces), if any, and where it starts.
fn ident_before(source: &str, end: usize) -> Option<(usize, &str)> {
    let b = source.as_bytes();
    let mut e = end;
    while e > 0 && b[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    let mut s = e;
    while s > 0 && is_ident(b[s - 1]) {
        s -= 1;
    }
    (s < e).then(|| (s, &source[s..e]))
}

/// The index of the `)` that closes the `(` at `open`.
fn closing(source: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in source.bytes().enumerate().skip(open) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A function's parameters `(name, is a read-only storage texture)`, from the text between its
/// parentheses.
fn params(list: &str) -> HashMap<String, bool> {
    let mut out = HashMap::new();
    let (mut depth, mut start) = (0i32, 0);
    let mut take = |part: &str| {
        if let Some((name, ty)) = part.split_once(':') {
            let name = name.split_whitespace().last().unwrap_or("").to_string();
            out.insert(name, read_type_at(ty.trim(), 0).is_some());
        }
    };
    for (i, c) in list.bytes().enumerate() {
        match c {
            b'<' | b'(' => depth += 1,
            b'>' | b')' => depth -= 1,
            b',' if depth == 0 => {
                take(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    take(&list[start..]);
    out
}

/// `source` with its read-only storage textures made sampled textures; see the module docs.
/// Every `textureLoad` whose texture is one (a global, or a parameter of a function, which
/// hides a global of the same name) gains the level argument `, 0`.
pub fn sampled_reads(source: &str) -> String {
    let b = source.as_bytes();
    // Globals declared `var NAME: texture_storage_2d<F, read>`.
    let mut globals = Vec::new();
    let mut at = 0;
    while let Some(k) = source[at..].find(READ_TYPE) {
        let i = at + k;
        let colon = source[..i].trim_end();
        if let Some(before) = colon.strip_suffix(':')
            && let Some((start, name)) = ident_before(before, before.len())
            && ident_before(before, start).map(|(_, w)| w) == Some("var")
            && read_type_at(source, i).is_some()
        {
            globals.push(name.to_string());
        }
        at = i + READ_TYPE.len();
    }
    // Where to insert the level: before the `)` closing each such textureLoad.
    let mut levels = Vec::new();
    let mut scope: Option<HashMap<String, bool>> = None;
    let (mut depth, mut i) = (0i32, 0);
    while i < b.len() {
        let rest = &source[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
            continue;
        }
        let word_start = i == 0 || !is_ident(b[i - 1]);
        if depth == 0
            && word_start
            && rest.starts_with("fn")
            && rest[2..].starts_with(|c: char| c.is_whitespace())
            && let Some(open) = rest.find('(')
            && let Some(close) = closing(source, i + open)
        {
            scope = Some(params(&source[i + open + 1..close]));
            i = close + 1;
            continue;
        }
        if word_start && rest.starts_with("textureLoad") {
            let after = rest["textureLoad".len()..].trim_start();
            let open = i + rest.len() - after.len();
            if let Some(arg) = after.strip_prefix('(') {
                let arg = arg.trim_start();
                let len = arg.bytes().take_while(|&c| is_ident(c)).count();
                let name = &arg[..len];
                let sampled = match scope.as_ref().and_then(|p| p.get(name)) {
                    Some(&is_read) => is_read,
                    None => globals.iter().any(|g| g == name),
                };
                if sampled && let Some(close) = closing(source, open) {
                    levels.push(close);
                }
            }
        }
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    scope = None;
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Insert the levels, then replace the types.
    let mut with_levels = String::with_capacity(source.len() + 4 * levels.len());
    let mut last = 0;
    levels.sort_unstable();
    for &close in &levels {
        with_levels.push_str(&source[last..close]);
        with_levels.push_str(", 0");
        last = close;
    }
    with_levels.push_str(&source[last..]);
    let mut out = String::with_capacity(with_levels.len());
    let mut at = 0;
    while let Some(k) = with_levels[at..].find(READ_TYPE) {
        let i = at + k;
        out.push_str(&with_levels[at..i]);
        match read_type_at(&with_levels, i) {
            Some((len, sampled)) => {
                out.push_str(&sampled);
                at = i + len;
            }
            None => {
                out.push_str(READ_TYPE);
                at = i + READ_TYPE.len();
            }
        }
    }
    out.push_str(&with_levels[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_only_storage_becomes_sampled_and_loads_gain_a_level() {
        let src = "\
@group(0) @binding(1) var a: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var bits : texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var out: texture_storage_2d<r32float, write>;
@group(0) @binding(4) var u: texture_storage_2d<r32float, read_write>;
// textureLoad(a, p) in a comment stays
fn open_at(bits: texture_storage_2d<r32uint, read>, q: vec2<i32>) -> bool {
    return textureLoad(bits, q).r == 0u;
}
fn twice(a: texture_storage_2d<r32float, read_write>, p: vec2<i32>) -> f32 {
    return 2.0 * textureLoad(a, p).r;
}
fn main() {
    let x = textureLoad(a, vec2<i32>(textureLoad(bits, vec2<i32>(0, 0)).xy)).r + textureLoad(u, p).r;
    textureStore(out, p, vec4<f32>(x));
}
";
        let got = sampled_reads(src);
        let want = "\
@group(0) @binding(1) var a: texture_2d<f32>;
@group(0) @binding(2) var bits : texture_2d<u32>;
@group(0) @binding(3) var out: texture_storage_2d<r32float, write>;
@group(0) @binding(4) var u: texture_storage_2d<r32float, read_write>;
// textureLoad(a, p) in a comment stays
fn open_at(bits: texture_2d<u32>, q: vec2<i32>) -> bool {
    return textureLoad(bits, q, 0).r == 0u;
}
fn twice(a: texture_storage_2d<r32float, read_write>, p: vec2<i32>) -> f32 {
    return 2.0 * textureLoad(a, p).r;
}
fn main() {
    let x = textureLoad(a, vec2<i32>(textureLoad(bits, vec2<i32>(0, 0), 0).xy), 0).r + textureLoad(u, p).r;
    textureStore(out, p, vec4<f32>(x));
}
";
        assert_eq!(got, want);
    }

    #[test]
    fn the_fitted_pass_reflects_to_sampled_reads() {
        let source = "
@group(0) @binding(0) var a: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var b: texture_storage_2d<r32uint, read>;
@group(0) @binding(2) var c: texture_storage_2d<rgba32float, write>;
@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    textureStore(c, id.xy, vec4<f32>(textureLoad(a, id.xy).r + f32(textureLoad(b, id.xy).r)));
}";
        let entries = crate::gpu::reflect::reflect(source).unwrap().entries;
        let got = crate::gpu::reflect::reflect(&sampled_reads(source)).unwrap().entries;
        assert_eq!(storage_count(&entries), 3);
        assert_eq!(storage_count(&got), 1);
        let types: Vec<_> = got.iter().map(|e| e.ty).collect();
        assert!(matches!(
            types[0],
            wgpu::BindingType::Texture { sample_type: wgpu::TextureSampleType::Float { filterable: false }, .. }
        ));
        assert!(matches!(types[1], wgpu::BindingType::Texture { sample_type: wgpu::TextureSampleType::Uint, .. }));
        assert_eq!(got[2], entries[2]);
    }
}
