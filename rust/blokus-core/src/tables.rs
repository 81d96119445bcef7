//! Everything precomputed for a variant: the validated variant, its placements, what its rule
//! family needs, and its move generator. Built once per variant and shared (`Arc`) by every
//! board, batch and game of it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::movegen::Generator;
use crate::placement::{Placement, Placements};
use crate::rules::RuleTables;
use crate::variant::{SpecError, Variant};

/// The tables of a variant.
///
/// ```
/// use blokus_core::{tables, Tables, Variant};
/// let duo = tables("duo").unwrap(); // built-ins are built once and shared
/// assert_eq!(duo.num_placements(), 13729);
/// let own = Tables::new(Variant::builtin("junior").unwrap());
/// assert_eq!(own.placement(0).unwrap().cells().len(), 1);
/// ```
#[derive(Debug)]
pub struct Tables {
    pub(crate) variant: Variant,
    pub(crate) placements: Placements,
    pub(crate) rules: RuleTables,
    pub(crate) generator: Generator,
    /// Per cell, how close it lies to the middle of the board (for the search's
    /// [`crate::Features::centre`]).
    pub(crate) centre: Vec<f32>,
}

impl Tables {
    /// Builds the tables of a variant.
    pub fn new(variant: Variant) -> Tables {
        let placements = Placements::new(&variant);
        let rules = RuleTables::new(&variant);
        let generator = Generator::new(&variant, &placements, &rules);
        Tables {
            centre: variant.closeness_to_centre(),
            variant,
            placements,
            rules,
            generator,
        }
    }

    /// Builds the tables of a variant that has a game: some piece fits the board and some
    /// colour has a first move. A variant without one is a [`SpecError`] at `pieces` (the
    /// built-ins all have one).
    ///
    /// ```
    /// use blokus_core::{Tables, Variant};
    /// let tiny = Variant::from_json(r#"{"id": "tiny", "board": {"geometry": "square",
    ///     "width": 2, "height": 2}, "colors": ["Blue"], "players": [[0]],
    ///     "shared_start_points": ["a1"], "pieces": {"only": ["I5"]}}"#).unwrap();
    /// let e = Tables::try_new(tiny).unwrap_err();
    /// assert_eq!(e.to_string(), "pieces: no piece fits the board of 4 cells");
    /// ```
    pub fn try_new(variant: Variant) -> Result<Tables, SpecError> {
        let t = Tables::new(variant);
        let cells = t.variant.num_cells();
        if t.num_placements() == 0 {
            return Err(SpecError::new(
                "pieces",
                format!("no piece fits the board of {cells} cells"),
            ));
        }
        let empty = t.rules.empty(&t.variant);
        if !(0..t.variant.num_colors()).any(|c| t.generator.has_move(&empty, c)) {
            return Err(SpecError::new(
                "start_points",
                "no colour has a first move: no piece covers a start point",
            ));
        }
        Ok(t)
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// Number of placements: the size of the move-id (action) space.
    pub fn num_placements(&self) -> usize {
        self.placements.len()
    }

    /// Placement `id`, if there is one.
    pub fn placement(&self, id: u32) -> Option<&Placement> {
        self.placements.list.get(id as usize)
    }

    /// Number of orientations of each piece.
    pub fn orientations(&self, piece: usize) -> usize {
        self.placements.shapes[piece].len()
    }

    /// The placement with exactly these cells (sorted by cell number), if any.
    pub fn placement_of_cells(&self, sorted_cells: &[u16]) -> Option<u32> {
        self.placements.of_cells(sorted_cells)
    }

    /// The cells sharing an edge (a face in Blokus 3D) with `cell`.
    pub fn edge_neighbours(&self, cell: usize) -> &[u16] {
        &self.placements.edge_neighbours[cell]
    }

    /// A checksum of the order of placement ids: the RL action space stays the same exactly
    /// when this does (pinned for the built-ins by a test).
    pub fn id_checksum(&self) -> u64 {
        self.placements.id_checksum()
    }

    /// The placement with id `id`, known to exist.
    #[inline]
    pub(crate) fn get(&self, id: u32) -> &Placement {
        &self.placements.list[id as usize]
    }
}

/// The tables of a built-in variant, built once per process and shared.
pub fn tables(id: &str) -> Option<Arc<Tables>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Tables>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = map.get(id) {
        return Some(Arc::clone(t));
    }
    let t = Arc::new(Tables::new(Variant::builtin(id)?));
    map.insert(id.to_string(), Arc::clone(&t));
    Some(t)
}
