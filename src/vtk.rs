//! VTK output (feature `vtk`, `eddy run --vtk DIR`): a grid's fields as VTK XML ImageData files
//! (`.vti`, one per output step), and a ParaView data collection (`.pvd`) that lists them with
//! their times, so that ParaView (or any VTK reader) opens a run as one time series. The files
//! are written by `vtkio`; each is written beside its target and renamed over it.
//!
//! Layout: eddy's arrays are `(H, W)` with row 0 at the top and y pointing down; VTK's image data
//! have y pointing up. So a file's cells run x first from the **bottom** row: VTK cell `(i, j)`
//! (x, y) is eddy's cell `(H - 1 - j, i)`, and a vector's y component is negated (up positive;
//! its z component is 0). Cells are 1 x 1 (eddy's unit of length), the origin at the grid's
//! bottom-left corner; every field is cell data (one value per cell), float32, and the walls
//! are `solid` (uint8, non-zero a wall or a body's cell).

use crate::files::SceneError;
use crate::grid::Grid;
use std::path::{Path, PathBuf};
use vtkio::model::{Attribute, Attributes, ByteOrder, DataArray, DataSet, Extent, ImageDataPiece, Piece, Version, Vtk};

/// One cell field in VTK's order (bottom row first, components interleaved).
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The array's name in the file (the `.npz` array's name).
    pub name: String,
    /// Values per cell: 1 (a scalar) or 3 (a vector or a colour).
    pub components: u32,
    /// `W x H x components` values.
    pub values: Vec<f32>,
}

/// The cells of `(H, W)` grids in VTK's order: bottom row first, each cell's `n` values from
/// `value(r, c)` together.
fn bottom_up<const N: usize>(shape: (usize, usize), value: impl Fn(usize, usize) -> [f32; N]) -> Vec<f32> {
    let (h, w) = shape;
    (0..h).rev().flat_map(|r| (0..w).map(move |c| (r, c))).flat_map(|(r, c)| value(r, c)).collect()
}

impl Field {
    /// A scalar field.
    pub fn scalar(name: &str, grid: &Grid<f32>) -> Self {
        let values = bottom_up(grid.shape(), |r, c| [grid[(r, c)]]);
        Self { name: name.into(), components: 1, values }
    }

    /// A vector field from its x and y (down) components, `(H, W)` each: y negated, z 0.
    pub fn vector(name: &str, x: &Grid<f32>, y: &Grid<f32>) -> Self {
        let values = bottom_up(x.shape(), |r, c| [x[(r, c)], -y[(r, c)], 0.0]);
        Self { name: name.into(), components: 3, values }
    }

    /// A colour, three `(H, W)` channels (red, green, blue).
    pub fn colour(name: &str, [red, green, blue]: [&Grid<f32>; 3]) -> Self {
        let values = bottom_up(red.shape(), |r, c| [red[(r, c)], green[(r, c)], blue[(r, c)]]);
        Self { name: name.into(), components: 3, values }
    }
}

/// The ImageData of `fields` and `solid` on a grid of `solid`'s shape.
fn image_data(fields: &[Field], solid: &Grid<u8>) -> Vtk {
    let (h, w) = solid.shape();
    let extent = Extent::Ranges([0..=w as i32, 0..=h as i32, 0..=0]);
    let mut cell: Vec<Attribute> = fields
        .iter()
        .map(|f| Attribute::DataArray(DataArray::scalars(f.name.clone(), f.components).with_data(f.values.clone())))
        .collect();
    let walls: Vec<u8> = (0..h).rev().flat_map(|r| (0..w).map(move |c| solid[(r, c)])).collect();
    cell.push(Attribute::DataArray(DataArray::scalars("solid", 1).with_data(walls)));
    let piece = ImageDataPiece { extent: extent.clone(), data: Attributes { point: Vec::new(), cell } };
    Vtk {
        version: Version::new(),
        title: "eddy".into(),
        byte_order: ByteOrder::LittleEndian,
        data: DataSet::ImageData {
            extent,
            origin: [0.0; 3],
            spacing: [1.0; 3],
            meta: None,
            pieces: vec![Piece::Inline(Box::new(piece))],
        },
        file_path: None,
    }
}

/// Writes `fields` and `solid` as one VTK XML ImageData file at `path` (written beside it and
/// renamed over it).
///
/// # Errors
/// [`SceneError::Io`] when the file cannot be written.
pub fn write_vti(path: &Path, fields: &[Field], solid: &Grid<u8>) -> Result<(), SceneError> {
    let vtk = image_data(fields, solid);
    crate::files::write_atomically(path, |w| vtk.write_xml(w).map_err(std::io::Error::other))
}

/// A series of `.vti` files in a folder, one per [`Series::add`], and the ParaView collection
/// `series.pvd` that lists them with their times (rewritten after each file).
#[derive(Debug)]
pub struct Series {
    dir: PathBuf,
    /// `(time, file name)` of each file written so far.
    entries: Vec<(f64, String)>,
}

impl Series {
    /// The name of the collection file in the folder.
    pub const COLLECTION: &'static str = "series.pvd";

    /// A series writing into `dir` (which must exist and be writable:
    /// [`crate::files::check_writable_dir`]).
    pub fn new(dir: &Path) -> Self {
        Self { dir: dir.to_path_buf(), entries: Vec::new() }
    }

    /// Writes step `step`'s fields as `step_NNNNNNNN.vti` at time `time` (eddy's time units: a
    /// step for water and gas, `dt` of them for smoke), then the collection with it listed.
    /// Returns the file's path.
    ///
    /// # Errors
    /// [`SceneError::Io`] when a file cannot be written.
    pub fn add(&mut self, step: u64, time: f64, fields: &[Field], solid: &Grid<u8>) -> Result<PathBuf, SceneError> {
        let name = format!("step_{step:08}.vti");
        let path = self.dir.join(&name);
        write_vti(&path, fields, solid)?;
        self.entries.retain(|(_, n)| *n != name);
        self.entries.push((time, name));
        let rows: String = self
            .entries
            .iter()
            .map(|(t, n)| format!("    <DataSet timestep=\"{t}\" group=\"\" part=\"0\" file=\"{n}\"/>\n"))
            .collect();
        let pvd = format!(
            "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n  \
             <Collection>\n{rows}  </Collection>\n</VTKFile>\n"
        );
        crate::files::write_atomically(&self.dir.join(Self::COLLECTION), |w| {
            std::io::Write::write_all(w, pvd.as_bytes())
        })?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bottom row comes first and a vector's y is negated: a 2 x 3 grid's cell (0, 0), the
    /// top-left, is VTK's cell (0, 1), the fourth.
    #[test]
    fn cells_run_from_the_bottom_row_with_y_up() {
        let g = Grid::from_vec(3, 2, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
        assert_eq!(Field::scalar("m", &g).values, vec![4.0, 5.0, 6.0, 1.0, 2.0, 3.0]);
        let v = Field::vector("v", &g, &g);
        assert_eq!(&v.values[9..12], &[1.0, -1.0, 0.0]);
    }

    /// A written file is ImageData over the grid's cells with each field and the walls as cell
    /// arrays (the Python tests read the files back with VTK's own reader), and the collection
    /// lists each step once, at its time.
    #[test]
    fn a_series_writes_image_data_and_its_collection() {
        let dir = tempfile::tempdir().unwrap();
        let mass = Grid::from_vec(4, 2, (0..8).map(|v| v as f32).collect()).unwrap();
        let solid = Grid::from_vec(4, 2, vec![1, 0, 0, 0, 0, 0, 0, 1]).unwrap();
        let mut series = Series::new(dir.path());
        series.add(0, 0.0, &[Field::scalar("mass", &mass)], &solid).unwrap();
        let path = series.add(10, 1.25, &[Field::scalar("mass", &mass)], &solid).unwrap();
        let xml = std::fs::read_to_string(&path).unwrap();
        assert!(xml.contains("<VTKFile type=\"ImageData\"") && xml.contains("WholeExtent=\"0 4 0 2 0 0\""), "{xml}");
        let cells = &xml[xml.find("<CellData").unwrap()..xml.find("</CellData>").unwrap()];
        assert!(cells.contains("Name=\"mass\"") && cells.contains("Name=\"solid\""), "{cells}");
        let pvd = std::fs::read_to_string(dir.path().join(Series::COLLECTION)).unwrap();
        assert!(
            pvd.contains("timestep=\"0\"")
                && pvd.contains("timestep=\"1.25\" group=\"\" part=\"0\" file=\"step_00000010.vti\"")
        );
        assert_eq!(pvd.matches("<DataSet").count(), 2);
    }
}
