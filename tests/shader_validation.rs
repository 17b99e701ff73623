//! naga parses, validates and (compute modules) reflects every WGSL module eddy builds, and
//! every `.wgsl` file under `shaders/` is part of one. All failures are collected, then asserted together.

use std::collections::BTreeSet;
use std::path::Path;

fn wgsl_files(dir: &Path, root: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            wgsl_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            out.insert(path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
}

/// Every module validates as written, and as fitted to a device with fewer storage textures per
/// stage than it binds (`eddy_fluid::gpu::fit`: read-only storage textures made sampled ones).
#[test]
fn every_shader_parses_and_validates() {
    let mut failures = Vec::new();
    let fitted: Vec<(String, String)> = eddy_fluid::shaders::ALL
        .iter()
        .map(|(name, source, _)| (format!("{name} (fitted)"), eddy_fluid::gpu::fit::sampled_reads(source)))
        .collect();
    let sources = eddy_fluid::shaders::ALL
        .iter()
        .map(|(n, s, _)| (*n, *s))
        .chain(fitted.iter().map(|(n, s)| (n.as_str(), s.as_str())));
    for (name, source) in sources {
        if name.ends_with("(fitted)") && !source.contains("texture_2d<") {
            continue; // nothing read-only to fit
        }
        let module = match naga::front::wgsl::parse_str(source) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: parse error:\n{}", e.emit_to_string(source)));
                continue;
            }
        };
        let mut validator =
            naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::default());
        if let Err(e) = validator.validate(&module) {
            failures.push(format!("{name}: validation error:\n{}", e.emit_to_string(source)));
        }
        // A compute module's layout is read from it (`eddy_fluid::gpu::Kernel::new`): it must reflect,
        // and bind 0, 1, 2, ... with no gap, as `Kernel::bind_group` binds resources in order.
        if module.entry_points.iter().any(|e| e.stage == naga::ShaderStage::Compute) {
            match eddy_fluid::gpu::reflect::reflect(source) {
                Ok(r) => {
                    let bindings: Vec<u32> = r.entries.iter().map(|e| e.binding).collect();
                    if bindings != (0..bindings.len() as u32).collect::<Vec<_>>() {
                        failures.push(format!("{name}: bindings {bindings:?} are not 0, 1, 2, ..."));
                    }
                }
                Err(e) => failures.push(format!("{name}: cannot be reflected: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} shader module(s) failed:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn every_wgsl_file_is_used() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut files = BTreeSet::new();
    wgsl_files(&root, &root, &mut files);
    assert!(!files.is_empty(), "no .wgsl files found under {}", root.display());
    let used: BTreeSet<String> =
        eddy_fluid::shaders::ALL.iter().flat_map(|(_, _, parts)| parts.iter().map(|p| p.to_string())).collect();
    let unused: Vec<_> = files.difference(&used).collect();
    assert!(
        unused.is_empty(),
        "these .wgsl files are in no module of eddy_fluid::shaders::ALL (so never validated): {unused:?}"
    );
}

/// The pass table names, for every module, its CPU twins (Rust paths the build checks) or why it
/// has none, never both; and the pass's own file (its last, but for the statistics' reduction)
/// names each twin in its comments,
/// so that the shader's reader is pointed at the same function as the table.
#[test]
fn every_module_names_its_cpu_twin_or_why_not() {
    use eddy_fluid::shaders::{ALL, TWINS};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut failures = Vec::new();
    assert_eq!(ALL.iter().map(|m| m.0).collect::<Vec<_>>(), TWINS.iter().map(|t| t.0).collect::<Vec<_>>());
    for ((name, _, files), (_, twins, why)) in ALL.iter().zip(TWINS) {
        if twins.is_empty() == why.is_empty() {
            failures.push(format!("{name}: give either its CPU twins or why it has none ({twins:?}, {why:?})"));
        }
        // The pass's own file: the last, but a statistics pass's is before the reduction's half.
        let own_file = files.iter().rev().find(|f| **f != "common/reduce.wgsl").unwrap();
        let own = std::fs::read_to_string(root.join(own_file)).unwrap();
        for twin in *twins {
            let last = twin.rsplit("::").next().unwrap().trim();
            if !own.contains(&format!("`{last}`")) && !own.contains(&format!("::{last}`")) {
                failures.push(format!("{name}: {own_file} does not name its twin `{last}` ({twin})"));
            }
        }
    }
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

/// The names a WGSL file declares at module scope (`fn`, `struct`, `const`, `override`,
/// `alias`, `var`, a binding's `var` after its attributes), comments skipped.
fn declared(source: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap();
        if code.starts_with(char::is_whitespace) {
            continue; // inside a function or a struct
        }
        let mut words = code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '@')).filter(|w| !w.is_empty());
        while let Some(word) = words.next() {
            if ["fn", "struct", "const", "override", "alias", "var"].contains(&word) {
                if let Some(name) =
                    words.find(|w| !["private", "uniform", "storage", "read", "read_write", "workgroup"].contains(w))
                {
                    names.insert(name.to_string());
                }
                break;
            }
        }
    }
    names
}

/// Each WGSL file that uses what another declares says so at its top, in a `// Uses:` comment
/// (continued on `//   ` lines): `file | alternative (names); ...; the pass's bindings (names)`.
/// In every module the file is composed into, one of each group's files is there too and
/// declares every name the group lists; the pass's bindings are declared by a file of the module.
#[test]
fn every_uses_line_names_files_of_its_modules_that_declare_what_it_uses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap();
    let mut failures = Vec::new();
    let mut lines_read = 0;
    for (name, _, files) in eddy_fluid::shaders::ALL {
        for file in *files {
            let source = read(file);
            let mut uses = String::new();
            for line in source.lines() {
                match (line.strip_prefix("// Uses: "), line.strip_prefix("//   ")) {
                    (Some(start), _) => uses.push_str(start),
                    (None, Some(more)) if !uses.is_empty() => uses.push_str(&format!(" {more}")),
                    _ => break,
                }
            }
            if uses.is_empty() {
                continue;
            }
            lines_read += 1;
            for group in uses.trim_end_matches('.').split("; ") {
                let Some((alternatives, names)) = group.split_once(" (") else {
                    failures.push(format!("{file}: `{group}` is not `files (names)`"));
                    continue;
                };
                let names: Vec<&str> = names.trim_end_matches(')').split(", ").collect();
                let candidates: Vec<&str> = if alternatives == "the pass's bindings" {
                    files.iter().copied().filter(|f| f != file).collect()
                } else {
                    alternatives.split(" | ").filter(|f| files.contains(f)).collect()
                };
                let declares = |n: &&str| candidates.iter().any(|f| declared(&read(f)).contains(*n));
                if let Some(missing) = names.iter().find(|n| !declares(n)) {
                    failures.push(format!("{name}: {file} says it uses `{missing}` from {alternatives}, which no file of the module there declares"));
                }
            }
        }
    }
    assert!(lines_read > 50, "only {lines_read} Uses lines read");
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

/// The registry's GPU needs of each model (what adapters are checked for) are those of its
/// shaders: the storage-texture formats its compute modules bind and the most storage textures
/// one of them writes (write-only or read-write; read-only ones can be sampled instead, see
/// `eddy_fluid::gpu::fit`). Read from the WGSL with naga, so a pass that adds a binding cannot leave
/// the table behind.
#[test]
fn registry_storage_needs_match_the_shaders() {
    use naga::{ImageClass, TypeInner};
    for kind in eddy_fluid::ModelKind::ALL {
        let prefix = format!("{}/", kind.name());
        let mut formats = BTreeSet::new();
        let mut read_write = BTreeSet::new();
        let mut most = 0;
        for (_, source, _) in eddy_fluid::shaders::ALL.iter().filter(|(n, ..)| n.starts_with(&prefix)) {
            let module = naga::front::wgsl::parse_str(source).unwrap();
            let mut count = 0;
            for (_, var) in module.global_variables.iter() {
                if let TypeInner::Image { class: ImageClass::Storage { format, access }, .. } =
                    module.types[var.ty].inner
                {
                    if access == naga::StorageAccess::LOAD | naga::StorageAccess::STORE {
                        read_write.insert(format!("{format:?}"));
                    }
                    formats.insert(format!("{format:?}"));
                    count += access.contains(naga::StorageAccess::STORE) as u32;
                }
            }
            most = most.max(count);
        }
        let info = kind.info();
        assert_eq!(most, info.storage_textures_per_stage, "{kind}: storage textures a pass writes");
        let registry: BTreeSet<String> = info.storage_formats.iter().map(|(f, _)| format!("{f:?}")).collect();
        assert_eq!(formats, registry, "{kind}: storage formats (naga's names vs wgpu's)");
        let registry: BTreeSet<String> = info.storage_read_write.iter().map(|f| format!("{f:?}")).collect();
        assert_eq!(read_write, registry, "{kind}: read-write storage formats");
    }
}

/// Whether `expression` has, at one parenthesis depth, both a shift (` << `, ` >> `, spaced, so
/// that a nested generic's `>>` is not one) and a bitwise `|`, `&` or `^` (spaced: not `||`,
/// `&&`, nor an assignment's `|=`).
fn mixes_shift_and_bitwise(expression: &str) -> bool {
    // Depth by depth: [shift, bitwise] seen at each open parenthesis level.
    let mut seen = vec![[false, false]];
    let bytes = expression.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        let next = bytes.get(i + 1).map(|&b| b as char);
        let prev = if i > 0 { bytes[i - 1] as char } else { ' ' };
        match c {
            '(' | '[' => seen.push([false, false]),
            ')' | ']' => {
                if let Some([shift, bitwise]) = seen.pop()
                    && shift
                    && bitwise
                {
                    return true;
                }
                if seen.is_empty() {
                    seen.push([false, false]);
                }
            }
            '<' | '>' if next == Some(c) && prev == ' ' && bytes.get(i + 2) == Some(&b' ') => {
                seen.last_mut().unwrap()[0] = true;
                i += 1;
            }
            '|' | '&' | '^' if prev == ' ' && next == Some(' ') => seen.last_mut().unwrap()[1] = true,
            _ => {}
        }
        i += 1;
    }
    seen.iter().any(|&[shift, bitwise]| shift && bitwise)
}

/// WGSL asks for parentheses where a shift meets a bitwise operator (`a | b << 1u` is an error:
/// in the WGSL spec's grammar a shift expression is not an operand of `|`, `&` or `^`, see its
/// "Operator Precedence and Associativity"). naga accepts it; Chromium's Tint refuses it, and in a browser
/// the module (and the model) fails to build: this check finds it without a browser.
#[test]
fn no_shader_mixes_shifts_and_bitwise_operators_unparenthesised() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut files = BTreeSet::new();
    wgsl_files(&root, &root, &mut files);
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for expression in code.split([';', ',', '{', '}']) {
                // The right-hand side of an assignment (`x |= a << b` is fine: `|=` assigns).
                let rhs = expression.rsplit_once("= ").map_or(expression, |(_, r)| r);
                if mixes_shift_and_bitwise(rhs) {
                    failures.push(format!("shaders/{file}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(mixes_shift_and_bitwise("a | b << 1u") && !mixes_shift_and_bitwise("a | (b << 1u)"), "the check");
    assert!(!mixes_shift_and_bitwise("a || b") && !mixes_shift_and_bitwise("vec2<vec2<f32>>(x) | y"), "the check");
    assert!(failures.is_empty(), "shifts mixed with | & ^ without parentheses:\n{}", failures.join("\n"));
}
