//! A compute pass's bind-group layout and workgroup size, read from its WGSL with naga.
//!
//! A pass's bindings are declared once, in its WGSL; [`super::Kernel::new`] builds the layout
//! from what [`reflect`] finds there (as vello reflects its shaders' bindings), so adding or
//! fusing a pass means writing its WGSL, its CPU mirror, and one line that names it.

/// What a compute shader's entry point `main` needs from Rust.
#[derive(Clone, Debug, PartialEq)]
pub struct Reflection {
    /// Layout entries of `@group(0)`, by binding number, visible to the compute stage.
    pub entries: Vec<wgpu::BindGroupLayoutEntry>,
    /// `@workgroup_size(x, y)`: cells one workgroup covers (columns, rows).
    pub workgroup: (u32, u32),
}

/// Reads `source`'s `@group(0)` bindings and its entry point `main`'s workgroup size.
///
/// Bindings map as WGSL declares them: `var<uniform>` to a uniform buffer, `var<storage, read>`
/// and `var<storage, read_write>` to storage buffers, `texture_storage_2d<F, A>` to a 2D
/// storage texture of format `F` and access `A`, `texture_2d<T>` to an unfilterable 2D texture
/// of sample type `T`, `sampler` to a non-filtering sampler.
///
/// # Errors
/// A one-line message when the WGSL does not parse, has no compute entry point `main`, a
/// binding outside group 0, or a binding of a kind eddy's passes do not use (arrays of
/// textures, 3D or multisampled textures, a storage format wgpu does not know).
pub fn reflect(source: &str) -> Result<Reflection, String> {
    use naga::{AddressSpace, ImageClass, ImageDimension, ScalarKind, TypeInner};
    let module = naga::front::wgsl::parse_str(source).map_err(|e| match e.location(source) {
        Some(at) => format!("line {}, column {}: {}", at.line_number, at.line_position, e.message()),
        None => e.message().to_string(),
    })?;
    let main = module
        .entry_points
        .iter()
        .find(|e| e.name == "main" && e.stage == naga::ShaderStage::Compute)
        .ok_or("no `@compute fn main`")?;
    let [x, y, _] = main.workgroup_size;
    let mut entries = Vec::new();
    for (_, var) in module.global_variables.iter() {
        let Some(binding) = &var.binding else { continue };
        let name = var.name.as_deref().unwrap_or("?");
        if binding.group != 0 {
            return Err(format!("`{name}` is in group {}; eddy's passes bind group 0 only", binding.group));
        }
        let ty = match (var.space, &module.types[var.ty].inner) {
            (AddressSpace::Uniform, _) => wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            (AddressSpace::Storage { access }, _) => wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: !access.contains(naga::StorageAccess::STORE) },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            (AddressSpace::Handle, TypeInner::Image { dim: ImageDimension::D2, arrayed: false, class }) => {
                match class {
                    ImageClass::Storage { format, access } => wgpu::BindingType::StorageTexture {
                        access: match (
                            access.contains(naga::StorageAccess::LOAD),
                            access.contains(naga::StorageAccess::STORE),
                        ) {
                            (true, true) => wgpu::StorageTextureAccess::ReadWrite,
                            (true, false) => wgpu::StorageTextureAccess::ReadOnly,
                            _ => wgpu::StorageTextureAccess::WriteOnly,
                        },
                        format: storage_format(*format)
                            .ok_or_else(|| format!("`{name}`: storage format {format:?}"))?,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    ImageClass::Sampled { kind, multi: false } => wgpu::BindingType::Texture {
                        sample_type: match kind {
                            ScalarKind::Uint => wgpu::TextureSampleType::Uint,
                            ScalarKind::Sint => wgpu::TextureSampleType::Sint,
                            _ => wgpu::TextureSampleType::Float { filterable: false },
                        },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    other => return Err(format!("`{name}`: image class {other:?}")),
                }
            }
            (AddressSpace::Handle, TypeInner::Sampler { comparison: false }) => {
                wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering)
            }
            (space, inner) => return Err(format!("`{name}`: a binding of {space:?} {inner:?}")),
        };
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: binding.binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty,
            count: None,
        });
    }
    entries.sort_by_key(|e| e.binding);
    Ok(Reflection { entries, workgroup: (x, y) })
}

/// The wgpu format of a WGSL storage texel format (those eddy's passes use, and their kin).
fn storage_format(format: naga::StorageFormat) -> Option<wgpu::TextureFormat> {
    use naga::StorageFormat as S;
    use wgpu::TextureFormat as T;
    Some(match format {
        S::R32Float => T::R32Float,
        S::R32Uint => T::R32Uint,
        S::R32Sint => T::R32Sint,
        S::Rg32Float => T::Rg32Float,
        S::Rg32Uint => T::Rg32Uint,
        S::Rgba32Float => T::Rgba32Float,
        S::Rgba32Uint => T::Rgba32Uint,
        S::Rgba16Float => T::Rgba16Float,
        S::R16Float => T::R16Float,
        S::Rg16Float => T::Rg16Float,
        S::Rgba8Unorm => T::Rgba8Unorm,
        S::R8Uint => T::R8Uint,
        S::R8Unorm => T::R8Unorm,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_wgsl_declares() {
        let wgsl = "
            struct P { a: f32 }
            @group(0) @binding(0) var<uniform> params: P;
            @group(0) @binding(2) var field: texture_storage_2d<r32float, read>;
            @group(0) @binding(1) var flags: texture_2d<u32>;
            @group(0) @binding(3) var out: texture_storage_2d<rgba32float, write>;
            @group(0) @binding(4) var both: texture_storage_2d<r32float, read_write>;
            @group(0) @binding(5) var<storage, read_write> sums: array<f32>;
            @compute @workgroup_size(16, 4)
            fn main(@builtin(global_invocation_id) id: vec3<u32>) {
                let v = textureLoad(field, id.xy).r + params.a + f32(textureLoad(flags, id.xy, 0).r);
                textureStore(out, id.xy, vec4(v));
                textureStore(both, id.xy, textureLoad(both, id.xy));
                sums[0] = v;
            }";
        let r = reflect(wgsl).unwrap();
        assert_eq!(r.workgroup, (16, 4));
        let kinds: Vec<String> = r.entries.iter().map(|e| format!("{}:{:?}", e.binding, e.ty)).collect();
        assert_eq!(r.entries.iter().map(|e| e.binding).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
        assert!(matches!(r.entries[0].ty, wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, .. }));
        assert!(
            matches!(r.entries[1].ty, wgpu::BindingType::Texture { sample_type: wgpu::TextureSampleType::Uint, .. }),
            "{kinds:?}"
        );
        let storage = |i: usize| match r.entries[i].ty {
            wgpu::BindingType::StorageTexture { access, format, .. } => (access, format),
            ref other => panic!("binding {i}: {other:?}"),
        };
        assert_eq!(storage(2), (wgpu::StorageTextureAccess::ReadOnly, wgpu::TextureFormat::R32Float));
        assert_eq!(storage(3), (wgpu::StorageTextureAccess::WriteOnly, wgpu::TextureFormat::Rgba32Float));
        assert_eq!(storage(4), (wgpu::StorageTextureAccess::ReadWrite, wgpu::TextureFormat::R32Float));
        assert!(matches!(
            r.entries[5].ty,
            wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Storage { read_only: false }, .. }
        ));
    }

    #[test]
    fn says_what_it_cannot_reflect() {
        assert!(reflect("fn f() {}").unwrap_err().contains("main"));
        assert!(reflect("@compute @workgroup_size(1) fn main( {").is_err());
        let group1 = "@group(1) @binding(0) var<uniform> a: f32;
            @compute @workgroup_size(1) fn main() { let x = a; }";
        assert!(reflect(group1).unwrap_err().contains("group 1"), "{:?}", reflect(group1));
    }
}
