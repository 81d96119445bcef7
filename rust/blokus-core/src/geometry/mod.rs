//! Geometries: how cells sit next to each other and how shapes turn.
//!
//! A geometry is used to build tables (placements, neighbour masks, names), never on the hot
//! path. Each geometry is one variant of [`Geometry`], dispatched by `match`.

mod cube;
mod square;
mod triangle;

/// Coordinates of a cell in its geometry: `[x, y, z]`; `z` is 0 on flat boards.
pub type Coord = [i32; 3];

/// The lattice a board is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// Squares; symmetry group D4 (8 elements).
    Square,
    /// Triangles in Pentobi's Trigon coordinates (docs/RULES.md): the cell at `(x, y)` points up when
    /// `x + y` is odd if `odd_up` (the hexagon of edge 9), even otherwise (edge 8). Symmetry group
    /// D6 (12 elements).
    Triangle {
        /// Whether the up-pointing triangles are those with `x + y` odd.
        odd_up: bool,
    },
    /// Cubes stacked in layers (Blokus 3D); symmetry group the 24 proper rotations.
    Cube,
}

impl Geometry {
    /// Number of elements of the symmetry group used to orient pieces.
    pub fn num_symmetries(self) -> usize {
        match self {
            Geometry::Square => square::SYMMETRIES,
            Geometry::Triangle { .. } => triangle::SYMMETRIES,
            Geometry::Cube => cube::SYMMETRIES,
        }
    }

    /// Applies symmetry `s` (0 is the identity) to a cell.
    pub fn transform(self, s: usize, c: Coord) -> Coord {
        match self {
            Geometry::Square => square::transform(s, c),
            Geometry::Triangle { odd_up } => triangle::transform(odd_up, s, c),
            Geometry::Cube => cube::transform(s, c),
        }
    }

    /// Moves a shape to its canonical place and sorts it, so equal shapes compare equal.
    pub fn normalize(self, shape: &[Coord]) -> Vec<Coord> {
        match self {
            Geometry::Square => square::normalize(shape),
            Geometry::Triangle { .. } => triangle::normalize(shape),
            Geometry::Cube => cube::normalize(shape),
        }
    }

    /// The translation taking `from` to `to`, if it maps the lattice onto itself.
    pub fn translation(self, from: Coord, to: Coord) -> Option<Coord> {
        match self {
            Geometry::Square => Some([to[0] - from[0], to[1] - from[1], to[2] - from[2]]),
            Geometry::Triangle { .. } => triangle::translation(from, to),
            Geometry::Cube => Some([to[0] - from[0], to[1] - from[1], to[2] - from[2]]),
        }
    }

    /// The geometry's name in variant specs (`square`, `triangle`, `cube`).
    pub fn name(self) -> &'static str {
        match self {
            Geometry::Square => "square",
            Geometry::Triangle { .. } => "triangle",
            Geometry::Cube => "cube",
        }
    }

    /// Whether the cell points up (triangles) rather than down; `None` where cells have no
    /// direction.
    pub fn points_up(self, c: Coord) -> Option<bool> {
        match self {
            Geometry::Square => None,
            Geometry::Triangle { odd_up } => Some(triangle::is_up(odd_up, c)),
            Geometry::Cube => None,
        }
    }

    /// Cells sharing an edge (a face in 3D) with `c`; may lie off the board.
    pub fn edge_neighbours(self, c: Coord) -> Vec<Coord> {
        match self {
            Geometry::Square => square::edge_neighbours(c),
            Geometry::Triangle { odd_up } => triangle::edge_neighbours(odd_up, c),
            Geometry::Cube => cube::face_neighbours(c),
        }
    }

    /// Cells touching `c` at a corner only; may lie off the board.
    pub fn corner_neighbours(self, c: Coord) -> Vec<Coord> {
        match self {
            Geometry::Square => square::corner_neighbours(c),
            Geometry::Triangle { odd_up } => triangle::corner_neighbours(odd_up, c),
            Geometry::Cube => cube::corner_neighbours(c),
        }
    }

    /// The orientations of a shape: its images under the symmetry group, normalized, each once,
    /// in the order the group's elements first produce them.
    pub fn orientations(self, shape: &[Coord]) -> Vec<Vec<Coord>> {
        let mut out: Vec<Vec<Coord>> = Vec::new();
        for s in 0..self.num_symmetries() {
            let image: Vec<Coord> = shape.iter().map(|&c| self.transform(s, c)).collect();
            let image = self.normalize(&image);
            if !out.contains(&image) {
                out.push(image);
            }
        }
        out
    }
}

/// Column letters of Pentobi's notation: a..z, then aa, ab, ... (bijective base 26).
pub fn column_name(x: i32) -> String {
    let mut n = x + 1;
    let mut letters = Vec::new();
    while n > 0 {
        n -= 1;
        letters.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ascii letters")
}

/// Splits a cell name like `aa12` into its 0-based column and its row number, reading case
/// insensitively. `None` if the text is not letters followed by a positive number.
pub fn parse_cell_name(text: &str) -> Option<(i32, i32)> {
    let bytes = text.as_bytes();
    let split = bytes.iter().position(|b| !b.is_ascii_alphabetic())?;
    if split == 0 || split > 3 {
        return None;
    }
    let mut col: i64 = 0;
    for &b in &bytes[..split] {
        col = col * 26 + i64::from(b.to_ascii_lowercase() - b'a') + 1;
    }
    let digits = &text[split..];
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.starts_with('0') {
        return None;
    }
    let row: i32 = digits.parse().ok()?;
    Some(((col - 1) as i32, row))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_are_bijective_base_26() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(34), "ai");
        for x in 0..800 {
            let name = format!("{}7", column_name(x));
            assert_eq!(parse_cell_name(&name), Some((x, 7)));
        }
    }

    #[test]
    fn bad_cell_names_are_rejected() {
        for bad in ["", "a", "7", "a0", "a07", "1a", "a-1", "a1b", "é1", "abcd1"] {
            assert_eq!(parse_cell_name(bad), None, "{bad}");
        }
        assert_eq!(parse_cell_name("T20"), Some((19, 20)));
    }
}
