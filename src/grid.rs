//! [`Grid<T>`]: an `(H, W)` array on the CPU, row 0 at the top, like an image.

/// An `H x W` array stored row-major: element `(row, col)` is at `data[row * width + col]`.
///
/// Row 0 is the top of the domain (gravity pulls towards larger rows), column 0 the left edge.
/// Constructors take the size as `width, height` (W columns, H rows), the order of every size in
/// eddy's API (wgpu's extents, image sizes, `--size WxH`); [`Grid::shape`] gives `(H, W)` and
/// cells are indexed `(row, col)`, the order of every array (NumPy's).
/// Every field eddy exchanges with the CPU (mass, solid mask, readbacks, `.npz` arrays) is a
/// `Grid`, so the layout is the same as NumPy's `(H, W)` C-order array and a PNG's pixel rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid<T> {
    width: usize,
    height: usize,
    data: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A grid of `width` columns and `height` rows (shape `(height, width)`) with every cell set
    /// to `value`.
    pub fn filled(width: usize, height: usize, value: T) -> Self {
        Self { width, height, data: vec![value; width * height] }
    }
}

impl<T> Grid<T> {
    /// Wraps row-major `data` of `height * width` elements as a grid of `width` columns and
    /// `height` rows (shape `(height, width)`).
    ///
    /// Returns `None` when `data.len() != width * height`.
    pub fn from_vec(width: usize, height: usize, data: Vec<T>) -> Option<Self> {
        (data.len() == width * height).then_some(Self { width, height, data })
    }

    /// Builds a grid of `width` columns and `height` rows by calling `f(row, col)` for every
    /// cell.
    pub fn from_fn(width: usize, height: usize, mut f: impl FnMut(usize, usize) -> T) -> Self {
        let mut data = Vec::with_capacity(width * height);
        for row in 0..height {
            for col in 0..width {
                data.push(f(row, col));
            }
        }
        Self { width, height, data }
    }

    /// Number of columns `W` (cells).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows `H` (cells).
    pub fn height(&self) -> usize {
        self.height
    }

    /// `(H, W)`, NumPy's order.
    pub fn shape(&self) -> (usize, usize) {
        (self.height, self.width)
    }

    /// The row-major cells, `H * W` of them.
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }

    /// The row-major cells, mutable.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }

    /// Consumes the grid, returning its row-major cells.
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }

    /// The cell at `(row, col)`, or `None` outside the grid (signed so callers can ask for `-1`).
    pub fn get(&self, row: isize, col: isize) -> Option<&T> {
        if row < 0 || col < 0 || row as usize >= self.height || col as usize >= self.width {
            return None;
        }
        Some(&self.data[row as usize * self.width + col as usize])
    }

    /// Applies `f` to every cell, keeping the shape.
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> Grid<U> {
        Grid { width: self.width, height: self.height, data: self.data.iter().map(f).collect() }
    }
}

impl<T> std::ops::Index<(usize, usize)> for Grid<T> {
    type Output = T;
    /// `grid[(row, col)]`; panics outside the grid like slice indexing.
    fn index(&self, (row, col): (usize, usize)) -> &T {
        assert!(row < self.height && col < self.width, "({row}, {col}) outside {}x{}", self.height, self.width);
        &self.data[row * self.width + col]
    }
}

impl<T> std::ops::IndexMut<(usize, usize)> for Grid<T> {
    fn index_mut(&mut self, (row, col): (usize, usize)) -> &mut T {
        assert!(row < self.height && col < self.width, "({row}, {col}) outside {}x{}", self.height, self.width);
        &mut self.data[row * self.width + col]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_major_with_row_zero_on_top() {
        let g = Grid::from_fn(3, 2, |r, c| r * 10 + c);
        assert_eq!(g.shape(), (2, 3));
        assert_eq!(g.as_slice(), &[0, 1, 2, 10, 11, 12]);
        assert_eq!(g[(1, 2)], 12);
        assert_eq!(g.get(-1, 0), None);
        assert_eq!(g.get(1, 3), None);
        assert_eq!(g.get(1, 0), Some(&10));
    }
}
