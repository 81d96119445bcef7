//! The Python extension `blokus._blokus`: conversions and GIL handling over `blokus-core`.
//! No rules live here.
//!
//! Threads: a long call releases the GIL. It works on a copy of what it needs
//! (`BoardCore.perft` counts on a copy of the board), or keeps its state behind a lock and
//! raises `BusyError` when another thread holds it (`BatchCore.step`). The searches
//! (`SearchCore.run`, `run_evaluated`, `run_evaluated_together`) are the exception: they keep
//! their `SearchCore` mutably borrowed, so a Python thread that touches a search while it runs
//! gets PyO3's "Already borrowed"; a search belongs to one thread at a time. Long calls check
//! for signals now and then, so Ctrl-C stops them with `KeyboardInterrupt`.

mod errors;

use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use errors::{excerpt, move_text, value, Class};

use blokus_core::{
    builtin_ids, builtin_spec_json, enumerate_in_playouts, list_in_games, move_features,
    pieces_of_cells, rewards, scores, search_selfplay, selfplay, time_replay, Analysis, Batch,
    Board, Budget, Evaluation, Grid, MoveTextError, Outputs, Placement, PlayError, Policy,
    Position, Rng, Scoring, Search, SearchConfig, Setup, SetupError, SetupTurn, SpecError,
    StepError, Tables, Variant, MAX_PIECES, NUM_FEATURES,
};
use numpy::{
    Element, IntoPyArray, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1,
    PyReadonlyArray2, PyReadwriteArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};

/// `InvalidPositionError` for a setup, with `kind` (the problem's short name), `color` and
/// `placement` (`(colour, index)` of the placement at fault) set where they apply.
fn setup_error(py: Python<'_>, t: &Tables, e: SetupError) -> PyErr {
    Class::InvalidPosition.with(
        py,
        e.describe(t),
        &[
            ("kind", value(py, e.kind())),
            ("color", value(py, e.color())),
            ("placement", value(py, e.placement())),
        ],
    )
}

/// `InvalidVariantError` for a spec, with `field` (the path of the field at fault, `None` for
/// the spec as a whole).
fn spec_error(py: Python<'_>, e: &SpecError) -> PyErr {
    let field = (!e.field.is_empty()).then_some(e.field.as_str());
    Class::InvalidVariant.with(py, e.to_string(), &[("field", value(py, field))])
}

fn scoring(py: Python<'_>, name: Option<&str>, default: Scoring) -> PyResult<Scoring> {
    match name {
        None => Ok(default),
        Some("advanced") => Ok(Scoring::Advanced),
        Some("basic") => Ok(Scoring::Basic),
        Some(other) => Err(Class::InvalidArgument.err(
            py,
            format!(
                "scoring must be 'advanced' or 'basic', not {}",
                excerpt(other)
            ),
        )),
    }
}

/// `InvalidMoveError` for move text, quoting it briefly, with `text` (the text as given) and
/// `index` (of the item at fault, if one is).
fn move_text_error(
    py: Python<'_>,
    text: &Bound<'_, PyString>,
    shown: &str,
    e: &MoveTextError,
) -> PyErr {
    Class::InvalidMove.with(
        py,
        format!("invalid move {}: {e}", excerpt(shown)),
        &[
            ("text", text.clone().into_any()),
            ("index", value(py, e.index())),
            ("reason", value(py, e.to_string())),
        ],
    )
}

/// `(colour, cells, placement id)` of a group of one colour's cells.
type GroupInfo = (usize, Vec<u16>, Option<u32>);

/// `(name, cells, copies, orientations)` of a piece.
type PieceInfo = (String, Vec<(i32, i32, i32)>, u8, usize);

/// The tables of one variant: placements, cells and names.
#[pyclass(frozen, module = "blokus._blokus")]
struct TablesCore {
    t: Arc<Tables>,
}

#[pymethods]
impl TablesCore {
    #[staticmethod]
    fn builtin(py: Python<'_>, id: &Bound<'_, PyString>) -> PyResult<TablesCore> {
        // A lone surrogate is no character of any id: read lossily, it names no variant.
        let id = id.to_string_lossy();
        match blokus_core::tables(&id) {
            Some(t) => Ok(TablesCore { t }),
            None => {
                // As many ids as fit in a short message.
                let ids = builtin_ids();
                let mut known = String::new();
                let mut shown = 0;
                for id in &ids {
                    if known.len() + id.len() > 100 {
                        break;
                    }
                    if shown > 0 {
                        known.push_str(", ");
                    }
                    known.push_str(id);
                    shown += 1;
                }
                if shown < ids.len() {
                    known.push_str(&format!(
                        " and {} more: blokus.variants()",
                        ids.len() - shown
                    ));
                }
                Err(Class::UnknownVariant.err(
                    py,
                    format!("unknown variant {} (known: {known})", excerpt(&id)),
                ))
            }
        }
    }

    #[staticmethod]
    fn from_json(py: Python<'_>, json: &str) -> PyResult<TablesCore> {
        let variant = Variant::from_json(json).map_err(|e| spec_error(py, &e))?;
        let t = py
            .detach(|| Tables::try_new(variant))
            .map_err(|e| spec_error(py, &e))?;
        Ok(TablesCore { t: Arc::new(t) })
    }

    #[getter]
    fn id(&self) -> String {
        self.t.variant().id().to_string()
    }
    #[getter]
    fn name(&self) -> String {
        self.t.variant().name().to_string()
    }
    #[getter]
    fn sgf_name(&self) -> Option<String> {
        self.t.variant().sgf_name().map(str::to_string)
    }
    #[getter]
    fn colors(&self) -> Vec<String> {
        self.t.variant().colors().to_vec()
    }
    #[getter]
    fn players(&self) -> Vec<Vec<usize>> {
        self.t.variant().players().to_vec()
    }
    #[getter]
    fn shared_colors(&self) -> Vec<usize> {
        self.t.variant().shared_colors().to_vec()
    }
    #[getter]
    fn scoring(&self) -> &'static str {
        match self.t.variant().scoring() {
            Scoring::Advanced => "advanced",
            Scoring::Basic => "basic",
        }
    }
    #[getter]
    fn geometry(&self) -> &'static str {
        self.t.variant().geometry().name()
    }
    #[getter]
    fn num_placements(&self) -> usize {
        self.t.num_placements()
    }
    #[getter]
    fn num_cells(&self) -> usize {
        self.t.variant().num_cells()
    }
    /// Coordinates `(x, y, z)` of every cell, by cell number.
    fn cell_coords(&self) -> Vec<(i32, i32, i32)> {
        self.t
            .variant()
            .cells()
            .iter()
            .map(|c| (c[0], c[1], c[2]))
            .collect()
    }
    /// For triangle boards, whether each cell points up; `None` on other geometries.
    fn cells_point_up(&self) -> Option<Vec<bool>> {
        let v = self.t.variant();
        v.cells()
            .iter()
            .map(|&c| v.geometry().points_up(c))
            .collect()
    }
    fn cell_name(&self, py: Python<'_>, cell: i64) -> PyResult<String> {
        let n = self.t.variant().num_cells();
        match usize::try_from(cell) {
            Ok(c) if c < n => Ok(self.t.variant().cell_name(c)),
            _ => {
                Err(Class::InvalidArgument
                    .err(py, format!("no cell {cell} (cells are 0..{})", n - 1)))
            }
        }
    }
    /// Start points of each colour, as cell numbers.
    fn start_points(&self) -> Vec<Vec<usize>> {
        self.t
            .variant()
            .start_points()
            .iter()
            .map(|b| b.iter().collect())
            .collect()
    }
    /// `(name, cells, copies, orientations)` of every piece.
    fn pieces(&self) -> Vec<PieceInfo> {
        self.t
            .variant()
            .pieces()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    p.name.clone(),
                    p.cells.iter().map(|c| (c[0], c[1], c[2])).collect(),
                    p.copies,
                    self.t.orientations(i),
                )
            })
            .collect()
    }
    fn placement_piece(&self, py: Python<'_>, id: u32) -> PyResult<usize> {
        Ok(self.placement(py, id)?.piece())
    }
    fn placement_cells(&self, py: Python<'_>, id: u32) -> PyResult<Vec<u16>> {
        Ok(self.placement(py, id)?.cells().to_vec())
    }
    fn move_text(&self, py: Python<'_>, id: u32) -> PyResult<String> {
        self.placement(py, id)?;
        Ok(self.t.move_text(id))
    }
    /// The placement move text names; `InvalidMoveError` (with `text` and `index`) if none.
    fn parse_move(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<u32> {
        let shown = move_text(py, text)?;
        self.t
            .parse_move(&shown)
            .map_err(|e| move_text_error(py, text, &shown, &e))
    }
    fn id_checksum(&self) -> u64 {
        self.t.id_checksum()
    }
    /// The cells as drawn: row by row from the top, each left to right (Blokus 3D: the
    /// columns of the ground layer).
    fn rows(&self) -> Vec<Vec<usize>> {
        self.t.variant().rows()
    }
    /// One letter per colour, as position strings and text pictures write colours.
    fn color_letters(&self) -> Vec<String> {
        self.t
            .variant()
            .color_letters()
            .into_iter()
            .map(String::from)
            .collect()
    }
    /// Canonical move text of a set of cells (by level, row, column).
    fn cells_text(&self, py: Python<'_>, cells: Vec<u16>) -> PyResult<String> {
        let n = self.t.variant().num_cells();
        if let Some(&bad) = cells.iter().find(|&&c| usize::from(c) >= n) {
            return Err(
                Class::InvalidArgument.err(py, format!("no cell {bad} (this board has {n})"))
            );
        }
        Ok(self.t.cells_text(&cells))
    }
    /// Blokus 3D: `(x, y, limit)` of every column, in column order; `None` on flat boards.
    fn column_limits(&self) -> Option<Vec<(i32, i32, u8)>> {
        let s = self.t.variant().structure()?;
        Some(
            s.columns
                .iter()
                .zip(&s.limits)
                .map(|(&[x, y], &l)| (x, y, l))
                .collect(),
        )
    }
    /// The edge-connected groups of one colour's cells, given the colour of every cell (-1
    /// empty): `(colour, cells, placement id or None)`, ordered by first cell.
    fn pieces_of_cells(&self, py: Python<'_>, colors: Vec<i64>) -> PyResult<Vec<GroupInfo>> {
        let v = self.t.variant();
        if colors.len() != v.num_cells() {
            return Err(Class::InvalidArgument.err(
                py,
                format!("{} colours given for {} cells", colors.len(), v.num_cells()),
            ));
        }
        let colors: Vec<Option<usize>> = colors
            .iter()
            .map(|&c| match c {
                -1 => Ok(None),
                c if c >= 0 && (c as usize) < v.num_colors() => Ok(Some(c as usize)),
                c => Err(Class::InvalidArgument.err(py, format!("no colour {c}"))),
            })
            .collect::<PyResult<_>>()?;
        Ok(pieces_of_cells(&self.t, &colors)
            .into_iter()
            .map(|g| (g.color, g.cells, g.placement))
            .collect())
    }
}

impl TablesCore {
    fn placement(&self, py: Python<'_>, id: u32) -> PyResult<&Placement> {
        self.t.placement(id).ok_or_else(|| {
            Class::InvalidMove.err(
                py,
                format!(
                    "no placement {id} in {} (ids are 0..{})",
                    self.t.variant().id(),
                    self.t.num_placements() - 1
                ),
            )
        })
    }
}

/// Heights and top colours of the columns of a Blokus 3D board.
type HeightMap<'py> = (Bound<'py, PyArray2<i32>>, Bound<'py, PyArray2<i32>>);

/// A game in progress.
#[pyclass(module = "blokus._blokus")]
struct BoardCore {
    board: Board,
}

#[pymethods]
impl BoardCore {
    #[new]
    fn new(tables: &TablesCore) -> BoardCore {
        BoardCore {
            board: Board::new(Arc::clone(&tables.t)),
        }
    }

    /// A game starting from a setup: the placements of each colour (the last is its last
    /// piece), the colour to move (`None`: the game is over; `first_from`: or the next one that
    /// can move) and the colours already out. Raises `InvalidPositionError`, with `placement`
    /// set to `(colour, index)` when one placement is at fault.
    #[staticmethod]
    #[pyo3(signature = (tables, placements, turn, first_from, out))]
    fn from_setup(
        py: Python<'_>,
        tables: &TablesCore,
        placements: Vec<Vec<u32>>,
        turn: Option<usize>,
        first_from: bool,
        out: Vec<usize>,
    ) -> PyResult<BoardCore> {
        let t = &tables.t;
        let mut out_bits = 0u8;
        for c in out {
            if c >= t.variant().num_colors() {
                return Err(setup_error(py, t, SetupError::NoColor { color: c }));
            }
            out_bits |= 1 << c;
        }
        let turn = match (turn, first_from) {
            (None, _) => SetupTurn::GameOver,
            (Some(c), false) => SetupTurn::Color(c),
            (Some(c), true) => SetupTurn::FirstFrom(c),
        };
        let setup = Setup {
            placements,
            turn,
            out: out_bits,
        };
        let board = Board::from_setup(Arc::clone(t), &setup).map_err(|e| setup_error(py, t, e))?;
        Ok(BoardCore { board })
    }

    /// The game at its start (the empty board or its setup), without the moves.
    fn start(&self) -> BoardCore {
        BoardCore {
            board: self.board.start(),
        }
    }

    /// Placement ids of each colour's pieces on the board, in the order they were put down
    /// (the setup's, then the moves'); each colour's last piece last.
    fn placements(&self) -> Vec<Vec<u32>> {
        self.board.placements()
    }

    /// The last piece each colour placed (piece index), `None` before its first.
    fn last_pieces(&self) -> Vec<Option<usize>> {
        let pos = self.board.position();
        (0..self.board.tables().variant().num_colors())
            .map(|c| pos.last_piece(c))
            .collect()
    }

    /// Colours out of the game (known to have no move left).
    #[getter]
    fn out(&self) -> Vec<usize> {
        let pos = self.board.position();
        (0..self.board.tables().variant().num_colors())
            .filter(|&c| pos.is_out(c))
            .collect()
    }

    #[getter]
    fn tables(&self) -> TablesCore {
        TablesCore {
            t: Arc::clone(self.board.tables()),
        }
    }
    #[getter]
    fn turn(&self) -> Option<usize> {
        self.board.turn()
    }
    #[getter]
    fn player(&self) -> Option<usize> {
        self.board.player()
    }
    #[getter]
    fn ply(&self) -> usize {
        self.board.ply()
    }
    #[getter]
    fn hash(&self) -> u64 {
        self.board.position().hash()
    }
    fn moves(&self) -> Vec<u32> {
        self.board.moves().collect()
    }
    fn move_colors(&self) -> Vec<usize> {
        self.board.move_colors().collect()
    }
    fn legal_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        self.board.legal_moves().into_pyarray(py)
    }
    /// The items of `table` at the legal ids, in order (the Python side passes its table of
    /// Move objects, so a listing builds no integers).
    fn legal_items<'py>(&self, table: &Bound<'py, PyList>) -> PyResult<Bound<'py, PyList>> {
        let ids = self.board.legal_moves();
        if table.len() != self.board.tables().num_placements() {
            return Err(Class::InvalidArgument.err(
                table.py(),
                format!(
                    "the table has {} items for {} placements",
                    table.len(),
                    self.board.tables().num_placements()
                ),
            ));
        }
        let items = ids
            .iter()
            .map(|&id| table.get_item(id as usize))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(table.py(), items)
    }
    fn count_moves(&self) -> usize {
        self.board.count_moves()
    }
    fn sample_move(&self, seed: u64) -> Option<u32> {
        self.board.sample_move(&mut Rng::new(seed))
    }
    /// `None` if legal, else `(kind, description)`.
    fn why_illegal(&self, py: Python<'_>, id: u32) -> PyResult<Option<(&'static str, String)>> {
        match self.board.why_illegal(id) {
            Ok(r) => Ok(r.map(|r| (r.kind(), r.describe(self.board.tables().variant())))),
            Err(e) => Err(self.play_error(py, e)),
        }
    }
    fn is_legal(&self, id: u32) -> bool {
        matches!(self.board.why_illegal(id), Ok(None))
    }
    fn push(&mut self, py: Python<'_>, id: u32) -> PyResult<()> {
        self.board.play(id).map_err(|e| self.play_error(py, e))
    }
    fn push_text(&mut self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<u32> {
        let shown = move_text(py, text)?;
        self.board.play_text(&shown).map_err(|e| match e {
            PlayError::Text(t) => move_text_error(py, text, &shown, &t),
            other => self.play_error(py, other),
        })
    }
    fn pop(&mut self) -> Option<u32> {
        self.board.undo()
    }
    fn copy(&self) -> BoardCore {
        BoardCore {
            board: self.board.clone(),
        }
    }
    #[pyo3(signature = (scoring=None))]
    fn points(&self, py: Python<'_>, scoring: Option<&str>) -> PyResult<Vec<i32>> {
        let s = self::scoring(py, scoring, self.board.tables().variant().scoring())?;
        Ok(self.board.points(s))
    }
    #[pyo3(signature = (scoring=None))]
    fn scores(&self, py: Python<'_>, scoring: Option<&str>) -> PyResult<Vec<i32>> {
        let points = self.points(py, scoring)?;
        Ok(scores(self.board.tables().variant(), &points))
    }
    fn result_line(&self) -> String {
        self.board.result_line()
    }
    /// The winning players (ties included), as the rules of the variant decide.
    fn winners(&self) -> Vec<usize> {
        self.board.winners()
    }
    /// +1 sole winner, 0 tied winner, -1 otherwise, per player.
    fn rewards(&self) -> Vec<f32> {
        let v = self.board.tables().variant();
        rewards(v, &self.board.points(v.scoring()))
    }
    /// Colour covering each cell, -1 if empty.
    fn cell_colors(&self) -> Vec<i8> {
        self.board
            .cell_colors()
            .into_iter()
            .map(|c| c.map_or(-1, |c| c as i8))
            .collect()
    }
    /// The planes of the colours from `color`'s point of view (see `blokus.rl`), int8.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        color: usize,
    ) -> PyResult<Bound<'py, PyArrayDyn<i8>>> {
        let v = self.board.tables().variant();
        let nc = v.num_colors();
        if color >= nc {
            return Err(Class::InvalidArgument
                .err(py, format!("no colour {color} (colours are 0..{})", nc - 1)));
        }
        let grid = Grid::new(v);
        let mut planes = vec![0u8; nc * grid.size()];
        grid.observe(self.board.position(), nc, color, &mut planes);
        let mut shape = vec![nc];
        if grid.shape[0] > 1 {
            shape.push(grid.shape[0]);
        }
        shape.extend_from_slice(&grid.shape[1..]);
        let planes: Vec<i8> = planes.into_iter().map(|x| x as i8).collect();
        planes.into_pyarray(py).reshape(shape)
    }
    /// Blokus 3D: `(heights, top colours)` per column, each as a `(rows, cols)` grid with the
    /// back row first (0 and -1 where a column is empty or missing); `None` on flat boards.
    fn height_map<'py>(&self, py: Python<'py>) -> PyResult<Option<HeightMap<'py>>> {
        let v = self.board.tables().variant();
        let heights = self.board.heights();
        if heights.is_empty() {
            return Ok(None);
        }
        let tops = self.board.top_colors();
        let (w, h) = v.extent();
        let (w, h) = (w as usize, h as usize);
        let mut hs = vec![0i32; w * h];
        let mut cs = vec![-1i32; w * h];
        for (column, (&height, top)) in heights.iter().zip(&tops).enumerate() {
            let [x, y, _] = v.cells()[column];
            let i = (h - 1 - y as usize) * w + x as usize;
            hs[i] = i32::from(height);
            cs[i] = top.map_or(-1, |c| c as i32);
        }
        Ok(Some((
            hs.into_pyarray(py).reshape([h, w])?,
            cs.into_pyarray(py).reshape([h, w])?,
        )))
    }
    /// Blokus 3D: the top cube (a cell number) of each column in column order, `None` for an
    /// empty column; empty on flat boards.
    fn top_cubes(&self) -> Vec<Option<usize>> {
        self.board.top_cubes()
    }
    /// The legal placements of `color` (its turn or not), sorted, by the plain reference
    /// generator of the core: the yardstick the tests hold the engine to.
    fn reference_legal_ids(&self, py: Python<'_>, color: usize) -> PyResult<Vec<u32>> {
        if color >= self.board.tables().variant().num_colors() {
            return Err(Class::InvalidArgument.err(py, format!("no colour {color}")));
        }
        Ok(blokus_core::reference::legal_moves(
            self.board.tables(),
            self.board.position(),
            color,
        ))
    }
    /// The features of each placement of `ids` for the colour to move, as a `(len(ids),
    /// NUM_FEATURES)` float32 array (see `blokus.bots`).
    fn features<'py>(&self, py: Python<'py>, ids: Vec<u32>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let rows = ids.len();
        let flat: Vec<f32> = ids
            .into_iter()
            .flat_map(|id| move_features(&self.board, id).vector())
            .collect();
        flat.into_pyarray(py).reshape([rows, NUM_FEATURES])
    }
    /// Each player's mean value over `playouts` games played on from here by the search's
    /// playout policy.
    fn playout_values(&self, py: Python<'_>, playouts: u32, seed: u64) -> Vec<f32> {
        let board = &self.board;
        py.detach(|| {
            let config = SearchConfig::for_variant(board.tables().variant());
            blokus_core::playout_values(board, playouts, seed, &config)
        })
    }
    /// Whether `color` has a legal placement (its turn or not).
    fn has_move(&self, color: usize) -> bool {
        self.board.has_move(color)
    }
    /// 1 for each legal placement id, 0 elsewhere, int8.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0i8; self.board.tables().num_placements()];
        self.board.for_each_move(|id| {
            mask[id as usize] = 1;
            true
        });
        mask.into_pyarray(py)
    }
    /// Copies left of each piece, per colour.
    fn pieces_left(&self) -> Vec<Vec<u8>> {
        let v = self.board.tables().variant();
        let pos = self.board.position();
        (0..v.num_colors())
            .map(|c| {
                (0..v.pieces().len())
                    .map(|p| pos.copies_left(c, p))
                    .collect()
            })
            .collect()
    }
    /// Counts on a copy of the board with the GIL released (so the board is free for other
    /// threads meanwhile); stops with the `KeyboardInterrupt` of a Ctrl-C.
    fn perft(slf: PyRef<'_, Self>, depth: u32) -> PyResult<u64> {
        let (py, board) = (slf.py(), slf.board.clone());
        drop(slf);
        interruptible(py, |go_on| board.perft_until(depth, go_on))
    }
    /// `(placement id, count)` below each legal move, sorted by id; like `perft`, on a copy
    /// without the GIL, and stopped by Ctrl-C.
    fn perft_divide(slf: PyRef<'_, Self>, depth: u32) -> PyResult<Vec<(u32, u64)>> {
        let (py, board) = (slf.py(), slf.board.clone());
        drop(slf);
        interruptible(py, |go_on| board.perft_divide_until(depth, go_on))
    }
    /// Perft by the plain reference generator of the core alone (slow, for shallow depths;
    /// GIL released).
    fn reference_perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let board = self.board.clone();
        py.detach(move || blokus_core::reference::perft(board.tables(), board.position(), depth))
    }
    /// Same position and same moves (the variants are compared by the Python side).
    fn __eq__(&self, other: &BoardCore) -> bool {
        let (a, b) = (self.board.tables(), other.board.tables());
        (Arc::ptr_eq(a, b)
            || (a.variant().id() == b.variant().id() && a.num_placements() == b.num_placements()))
            && self.board.position() == other.board.position()
            && self.board.moves().eq(other.board.moves())
    }
}

impl BoardCore {
    fn play_error(&self, py: Python<'_>, e: PlayError) -> PyErr {
        let t = self.board.tables();
        match e {
            PlayError::Text(e) => Class::InvalidMove.with(
                py,
                format!("invalid move: {e}"),
                &[("index", value(py, e.index()))],
            ),
            PlayError::UnknownId(id) => Class::InvalidMove.err(
                py,
                format!(
                    "no placement {id} in {} (ids are 0..{})",
                    t.variant().id(),
                    t.num_placements() - 1
                ),
            ),
            PlayError::Illegal { id, reason } => {
                let v = t.variant();
                let turn = self.board.turn();
                let who = turn.map_or(String::new(), |c| format!(" for {}", v.colors()[c]));
                let text = t.move_text(id);
                Class::IllegalMove.with(
                    py,
                    format!("illegal move {text}{who}: {}", reason.describe(v)),
                    &[
                        ("reason", value(py, reason.kind())),
                        ("cell", value(py, reason.cell().map(|c| v.cell_name(c)))),
                        ("move", value(py, text)),
                        ("color", value(py, turn)),
                    ],
                )
            }
        }
    }
}

/// `(placement, visits, value, prior)` of a root move.
type RootMoveInfo = (u32, u32, f32, f32);

/// The search's analysis: root moves, value per player, principal variation, simulations,
/// seconds, nodes.
type AnalysisInfo = (Vec<RootMoveInfo>, Vec<f32>, Vec<u32>, u64, f64, usize);

/// A Monte Carlo tree search of one variant, keeping its tree from move to move.
#[pyclass(module = "blokus._blokus")]
struct SearchCore {
    search: Search,
}

#[pymethods]
impl SearchCore {
    /// A search with `threads` threads and `seed`; `options` sets other fields of the core's
    /// `SearchConfig` by name (`exploration`, `prior_weights`, `size_bias`, ...).
    #[new]
    #[pyo3(signature = (tables, threads=1, seed=0, options=None))]
    fn new(
        py: Python<'_>,
        tables: &TablesCore,
        threads: usize,
        seed: u64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<SearchCore> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(Class::InvalidArgument.err(
                py,
                format!("threads must be 1 to {MAX_THREADS}, not {threads}"),
            ));
        }
        let mut config = SearchConfig {
            threads,
            seed,
            ..SearchConfig::for_variant(tables.t.variant())
        };
        if let Some(options) = options {
            for (key, value) in options.iter() {
                let key: String = key.extract()?;
                set_search_option(py, &mut config, &key, &value)?;
            }
        }
        config
            .check(tables.t.variant())
            .map_err(|e| Class::InvalidArgument.err(py, e))?;
        Ok(SearchCore {
            search: Search::new(Arc::clone(&tables.t), config),
        })
    }

    /// Forgets the tree (a new game).
    fn clear(&mut self) {
        self.search.clear();
    }

    /// `run` with `evaluator(observations, masks, paths, colors) -> (priors, values or None)` giving the
    /// leaves' priors (and values), called on batches of up to `batch_size` leaves with the GIL
    /// taken only for the call.
    #[pyo3(signature = (board, evaluator, batch_size=8, simulations=None, seconds=None))]
    fn run_evaluated(
        &mut self,
        py: Python<'_>,
        board: &BoardCore,
        evaluator: Py<PyAny>,
        batch_size: usize,
        simulations: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<AnalysisInfo> {
        if !Arc::ptr_eq(board.board.tables(), &self.search_tables()) {
            return Err(Class::InvalidArgument.err(
                py,
                "the board is of another variant than the search".to_string(),
            ));
        }
        let asked = Instant::now();
        let t = self.search_tables();
        let search = &mut self.search;
        let mut failed = None;
        let analysis = py.detach(|| {
            search.set_board(&board.board);
            let budget = budget_from(simulations, seconds, asked);
            search.run_evaluated(budget, batch_size.max(1), &mut |positions, ways| {
                Python::attach(|py| {
                    let outcome = py.check_signals().and_then(|()| {
                        call_evaluator(py, &t, evaluator.bind(py), positions, ways.to_vec(), None)
                    });
                    match outcome {
                        Ok(e) => Some(e),
                        Err(e) => {
                            failed = Some(e);
                            None
                        }
                    }
                })
            })
        });
        if let Some(e) = failed {
            return Err(e);
        }
        Ok(analysis_info(&analysis))
    }

    /// Searches from `board`'s position (keeping the subtree of the moves played since the
    /// last search) for `simulations` or `seconds`, whichever ends first, with the GIL
    /// released; Ctrl-C stops it with `KeyboardInterrupt`.
    #[pyo3(signature = (board, simulations=None, seconds=None))]
    fn run(
        &mut self,
        py: Python<'_>,
        board: &BoardCore,
        simulations: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<AnalysisInfo> {
        if !Arc::ptr_eq(board.board.tables(), &self.search_tables()) {
            return Err(Class::InvalidArgument.err(
                py,
                "the board is of another variant than the search".to_string(),
            ));
        }
        let asked = Instant::now();
        let search = &mut self.search;
        let analysis = interruptible(py, |go_on| {
            search.set_board(&board.board);
            let mut stopped = false;
            let analysis = search.run(budget_from(simulations, seconds, asked), &mut || {
                stopped = !go_on();
                !stopped
            });
            (!stopped).then_some(analysis)
        })?;
        Ok(analysis_info(&analysis))
    }
}

/// A search's budget, its seconds counted from `asked` (when the caller asked for the move),
/// so that the time spent keeping the subtree of the moves since the last search is part of
/// the budget.
fn budget_from(simulations: Option<u64>, seconds: Option<f64>, asked: Instant) -> Budget {
    Budget {
        simulations,
        seconds: seconds.map(|s| (s - asked.elapsed().as_secs_f64()).max(0.0)),
    }
}

/// A whole-number search option from 0 to `max` (which `T` holds), or an error naming it.
fn whole<T: TryFrom<u64>>(
    py: Python<'_>,
    key: &str,
    value: &Bound<'_, PyAny>,
    max: u64,
) -> PyResult<T> {
    let bad =
        || Class::InvalidArgument.err(py, format!("{key} must be a whole number from 0 to {max}"));
    let n: u64 = value.extract().map_err(|_| bad())?;
    if n > max {
        return Err(bad());
    }
    T::try_from(n).map_err(|_| bad())
}

/// Sets the field `key` of a search configuration from a Python value.
fn set_search_option(
    py: Python<'_>,
    config: &mut SearchConfig,
    key: &str,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let number = || -> PyResult<f32> {
        let x = value.extract::<f32>()?;
        if !x.is_finite() {
            return Err(Class::InvalidArgument.err(py, format!("{key} must be finite, not {x}")));
        }
        Ok(x)
    };
    let count = || -> PyResult<usize> { whole(py, key, value, u32::MAX.into()) };
    match key {
        "exploration" => config.exploration = number()?,
        "first_play_reduction" => config.first_play_reduction = number()?,
        "rave_equivalence" => config.rave_equivalence = number()?,
        "expand_after" => config.expand_after = whole(py, key, value, u32::MAX.into())?,
        "max_children" => config.max_children = count()?,
        "first_children" => config.first_children = count()?,
        "widening" => config.widening = number()?,
        "size_bias" => config.playout.size_bias = number()?,
        "margin_weight" => config.margin_weight = number()?,
        "max_nodes" => config.max_nodes = count()?,
        "tournament" => config.playout.tournament = whole(py, key, value, u8::MAX.into())?,
        "local" => {
            config.playout.local = value.extract::<bool>().map_err(|_| {
                Class::InvalidArgument.err(py, format!("{key} must be True or False"))
            })?
        }
        "replies" => {
            config.replies = value.extract::<bool>().map_err(|_| {
                Class::InvalidArgument.err(py, format!("{key} must be True or False"))
            })?
        }
        "prior_weights" => {
            let w: Vec<f32> = value.extract()?;
            config.prior_weights = w.try_into().map_err(|w: Vec<f32>| {
                Class::InvalidArgument.err(
                    py,
                    format!(
                        "prior_weights: {} numbers for {NUM_FEATURES} features",
                        w.len()
                    ),
                )
            })?;
        }
        "piece_weights" | "playout_piece_weights" => {
            let w: Vec<f32> = value.extract()?;
            if w.len() > MAX_PIECES {
                return Err(Class::InvalidArgument.err(
                    py,
                    format!(
                        "{key}: {} numbers, a variant has at most {MAX_PIECES} pieces",
                        w.len()
                    ),
                ));
            }
            let target = if key == "piece_weights" {
                &mut config.piece_weights
            } else {
                &mut config.playout.piece_weights
            };
            *target = [0.0; MAX_PIECES];
            target[..w.len()].copy_from_slice(&w);
        }
        other => {
            return Err(
                Class::InvalidArgument.err(py, format!("no search option {}", excerpt(other)))
            )
        }
    }
    Ok(())
}

/// The analysis as Python receives it.
fn analysis_info(analysis: &Analysis) -> AnalysisInfo {
    let moves = analysis
        .moves
        .iter()
        .map(|m| (m.id, m.visits, m.value, m.prior))
        .collect();
    (
        moves,
        analysis.value.clone(),
        analysis.pv.clone(),
        analysis.simulations,
        analysis.seconds,
        analysis.nodes,
    )
}

/// Calls a Python evaluator on leaf positions: observations `(k, colours, [layers,] rows,
/// cols)` uint8 from each mover's point of view, legal masks `(k, placements)` bool, the moves
/// from the root to each leaf and the colours to move `(k,)` int32 in (and, from several
/// searches, the search of each leaf `(k,)` int64); priors `(k, placements)` and values
/// `(k, players)` (or `None`) out.
fn call_evaluator(
    py: Python<'_>,
    t: &Tables,
    evaluator: &Bound<'_, PyAny>,
    positions: &[Position],
    paths: Vec<Vec<u32>>,
    searches: Option<Vec<i64>>,
) -> PyResult<Vec<Evaluation>> {
    let v = t.variant();
    let grid = Grid::new(v);
    let (k, nc, na, np_) = (
        positions.len(),
        v.num_colors(),
        t.num_placements(),
        v.num_players(),
    );
    let mut obs = vec![0u8; k * nc * grid.size()];
    let mut masks = vec![false; k * na];
    let mut colors = vec![0i32; k];
    let board_size = nc * grid.size();
    for (g, pos) in positions.iter().enumerate() {
        let mover = pos.turn().unwrap_or(0);
        colors[g] = mover as i32;
        grid.observe(
            pos,
            nc,
            mover,
            &mut obs[g * board_size..(g + 1) * board_size],
        );
        for id in t.legal_moves(pos) {
            masks[g * na + id as usize] = true;
        }
    }
    let mut shape = vec![k, nc];
    if grid.shape[0] > 1 {
        shape.push(grid.shape[0]);
    }
    shape.extend_from_slice(&grid.shape[1..]);
    let obs = obs.into_pyarray(py).reshape(shape)?;
    let masks = masks.into_pyarray(py).reshape([k, na])?;
    let colors = colors.into_pyarray(py);
    let result = match searches {
        None => evaluator.call1((obs, masks, paths, colors))?,
        Some(searches) => {
            evaluator.call1((obs, masks, paths, colors, searches.into_pyarray(py)))?
        }
    };
    let bad =
        |what: String| Class::InvalidArgument.err(py, format!("the evaluator's result: {what}"));
    let (priors, values): (Bound<'_, PyAny>, Bound<'_, PyAny>) = result
        .extract()
        .map_err(|_| bad("expected a pair (priors, values)".into()))?;
    let numpy = py.import("numpy")?;
    let as_floats =
        |x: &Bound<'_, PyAny>, rows: usize, cols: usize, name: &str| -> PyResult<Vec<f32>> {
            let array = numpy.call_method1("ascontiguousarray", (x, "float32"))?;
            let array = array
                .cast_into::<PyArray2<f32>>()
                .map_err(|_| bad(format!("{name} must be a 2-d array of numbers")))?;
            let shape = array.shape().to_vec();
            if shape != [rows, cols] {
                return Err(bad(format!(
                    "{name} has shape {shape:?}, expected ({rows}, {cols})"
                )));
            }
            let array = array.readonly();
            Ok(array.as_slice()?.to_vec())
        };
    let priors = as_floats(&priors, k, na, "priors")?;
    let values = if values.is_none() {
        None
    } else {
        Some(as_floats(&values, k, np_, "values")?)
    };
    Ok((0..k)
        .map(|g| Evaluation {
            priors: priors[g * na..(g + 1) * na].to_vec(),
            values: values.as_ref().map(|v| v[g * np_..(g + 1) * np_].to_vec()),
        })
        .collect())
}

/// What a search's thread of [`run_evaluated_together`] tells the calling thread.
enum Together {
    /// Search `k` asks for the evaluations of these leaves (and the moves to each).
    Ask(usize, Vec<Position>, Vec<Vec<u32>>),
    /// Search `k` has finished (`None`: it panicked).
    Done(usize, Option<Analysis>),
}

/// `run_evaluated` of many searches at once, each from its board: every search on a thread
/// of its own, the evaluator called (on this thread, with the GIL) once every search still
/// running has gathered its leaves, on all of them together, with a fifth argument: the
/// search of each leaf. Returns the searches' analyses in order.
#[pyfunction]
#[pyo3(signature = (searches, boards, evaluator, batch_size=8, simulations=None, seconds=None))]
fn run_evaluated_together(
    py: Python<'_>,
    searches: Vec<Bound<'_, SearchCore>>,
    boards: Vec<PyRef<'_, BoardCore>>,
    evaluator: Py<PyAny>,
    batch_size: usize,
    simulations: Option<u64>,
    seconds: Option<f64>,
) -> PyResult<Vec<AnalysisInfo>> {
    let asked = Instant::now();
    let invalid = |what: String| Class::InvalidArgument.err(py, what);
    if searches.len() != boards.len() {
        return Err(invalid(format!(
            "{} searches for {} boards: one search a board",
            searches.len(),
            boards.len()
        )));
    }
    for (i, s) in searches.iter().enumerate() {
        if let Some(j) = searches[..i].iter().position(|other| other.is(s)) {
            return Err(invalid(format!(
                "searches {j} and {i} are the same search: one search a board"
            )));
        }
    }
    let mut cores = searches
        .iter()
        .map(|s| s.try_borrow_mut())
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = cores.first() else {
        return Ok(Vec::new());
    };
    let t = first.search_tables();
    for (k, (core, board)) in cores.iter_mut().zip(&boards).enumerate() {
        if !Arc::ptr_eq(&core.search_tables(), &t) || !Arc::ptr_eq(board.board.tables(), &t) {
            return Err(invalid(format!(
                "search {k} or its board is of another variant than search 0"
            )));
        }
        core.search.set_board(&board.board);
    }
    let n = cores.len();
    let batch_size = batch_size.max(1);
    let mut failed: Option<PyErr> = None;
    let analyses = {
        let searches: Vec<&mut Search> = cores.iter_mut().map(|c| &mut c.search).collect();
        let (t, evaluator, failed) = (&t, &evaluator, &mut failed);
        py.detach(move || {
            std::thread::scope(|scope| {
                let (to_caller, messages) = std::sync::mpsc::channel();
                let mut replies = Vec::with_capacity(n);
                for (k, search) in searches.into_iter().enumerate() {
                    let (reply, answers) = std::sync::mpsc::channel::<Option<Vec<Evaluation>>>();
                    replies.push(reply);
                    let to_caller = to_caller.clone();
                    scope.spawn(move || {
                        let budget = budget_from(simulations, seconds, asked);
                        // A panic (a bug) ends this search alone, and is reported after.
                        let analysis =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                search.run_evaluated(budget, batch_size, &mut |ps, ways| {
                                    to_caller
                                        .send(Together::Ask(k, ps.to_vec(), ways.to_vec()))
                                        .ok()?;
                                    answers.recv().ok().flatten()
                                })
                            }))
                            .ok();
                        // The caller waits for every search, so it is still there.
                        let _ = to_caller.send(Together::Done(k, analysis));
                    });
                }
                drop(to_caller);
                let mut analyses: Vec<Option<Analysis>> = (0..n).map(|_| None).collect();
                let mut live = n;
                let mut pending: Vec<(usize, Vec<Position>, Vec<Vec<u32>>)> = Vec::new();
                while live > 0 {
                    match messages.recv() {
                        Ok(Together::Ask(k, ps, ways)) => pending.push((k, ps, ways)),
                        Ok(Together::Done(k, analysis)) => {
                            analyses[k] = analysis;
                            live -= 1;
                        }
                        Err(_) => break,
                    }
                    if pending.is_empty() || pending.len() < live {
                        continue;
                    }
                    // Every running search waits: one call for all their leaves.
                    let batch = std::mem::take(&mut pending);
                    let evaluations = if failed.is_some() {
                        None
                    } else {
                        let mut positions = Vec::new();
                        let mut paths = Vec::new();
                        let mut owners = Vec::new();
                        for (k, ps, ways) in &batch {
                            positions.extend_from_slice(ps);
                            paths.extend(ways.iter().cloned());
                            owners.extend(std::iter::repeat_n(*k as i64, ps.len()));
                        }
                        Python::attach(|py| {
                            py.check_signals().and_then(|()| {
                                call_evaluator(
                                    py,
                                    t,
                                    evaluator.bind(py),
                                    &positions,
                                    paths,
                                    Some(owners),
                                )
                            })
                        })
                        .map_err(|e| *failed = Some(e))
                        .ok()
                    };
                    let mut evaluations = evaluations.map(Vec::into_iter);
                    for (k, ps, _) in batch {
                        let share = evaluations
                            .as_mut()
                            .map(|all| all.by_ref().take(ps.len()).collect());
                        // A search that has stopped no longer listens; nothing to tell it.
                        let _ = replies[k].send(share);
                    }
                }
                analyses
            })
        })
    };
    if let Some(e) = failed {
        return Err(e);
    }
    analyses
        .iter()
        .enumerate()
        .map(|(k, a)| {
            a.as_ref().map(analysis_info).ok_or_else(|| {
                pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "search {k} failed (a bug in blokus: please report it)"
                ))
            })
        })
        .collect()
}

impl SearchCore {
    fn search_tables(&self) -> Arc<Tables> {
        self.search.tables()
    }
}

/// A batch of games stepped together, writing into numpy arrays it owns.
///
/// The games are behind a lock: a second thread that steps or resets while one does gets a
/// `BusyError` (the arrays are the batch's to write, so two writers cannot share them).
#[pyclass(frozen, module = "blokus._blokus")]
struct BatchCore {
    t: Arc<Tables>,
    batch: Mutex<Batch>,
    games: usize,
    threads: usize,
    /// Whether an illegal action loses its game (`illegal_action="lose"`) instead of raising.
    lose: bool,
    #[pyo3(get)]
    observation: Py<PyArrayDyn<u8>>,
    #[pyo3(get)]
    legal_action_mask: Py<PyArray2<bool>>,
    #[pyo3(get)]
    rewards: Py<PyArray2<f32>>,
    #[pyo3(get)]
    current_player: Py<PyArray1<i32>>,
    #[pyo3(get)]
    current_color: Py<PyArray1<i32>>,
    #[pyo3(get)]
    terminated: Py<PyArray1<bool>>,
}

/// A zeroed numpy array made by numpy itself, so that an allocation it cannot make is a
/// `MemoryError` (rust-numpy's constructors panic instead).
fn zeros<'py, T: Element, D: numpy::ndarray::Dimension>(
    py: Python<'py>,
    shape: &[usize],
) -> PyResult<Bound<'py, numpy::PyArray<T, D>>> {
    static ZEROS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let zeros = ZEROS.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("numpy")?.getattr("zeros")?.unbind())
    })?;
    let shape = pyo3::types::PyTuple::new(py, shape)?;
    let array = zeros.bind(py).call1((shape, numpy::dtype::<T>(py)))?;
    Ok(array.cast_into::<numpy::PyArray<T, D>>()?)
}

/// The arrays of a batch, borrowed for writing.
struct Written<'py> {
    observation: PyReadwriteArray<'py, u8, numpy::IxDyn>,
    legal_action_mask: PyReadwriteArray<'py, bool, numpy::Ix2>,
    rewards: PyReadwriteArray<'py, f32, numpy::Ix2>,
    current_player: PyReadwriteArray<'py, i32, numpy::Ix1>,
    current_color: PyReadwriteArray<'py, i32, numpy::Ix1>,
    terminated: PyReadwriteArray<'py, bool, numpy::Ix1>,
}

#[pymethods]
impl BatchCore {
    /// `games` games at the start. The sizes are checked before anything is allocated, and an
    /// allocation that fails is a `MemoryError`. `illegal_action` is `"raise"` or `"lose"`
    /// (`Batch::step` or `Batch::step_or_lose`).
    #[new]
    #[pyo3(signature = (tables, games, threads, illegal_action="raise"))]
    fn new(
        py: Python<'_>,
        tables: &TablesCore,
        games: usize,
        threads: usize,
        illegal_action: &str,
    ) -> PyResult<BatchCore> {
        let t = &tables.t;
        let v = t.variant();
        if games == 0 {
            return Err(Class::InvalidArgument.err(py, "a batch needs at least one game"));
        }
        let lose = match illegal_action {
            "raise" => false,
            "lose" => true,
            other => {
                return Err(Class::InvalidArgument.err(
                    py,
                    format!("illegal_action must be 'raise' or 'lose', not {other:?}"),
                ))
            }
        };
        let grid = Grid::new(v);
        let nc = v.num_colors();
        // Bytes per game: the arrays, the position and what the batch keeps beside it.
        let per_game = nc * grid.size()
            + t.num_placements()
            + 4 * v.num_players()
            + 4
            + 4
            + 1
            + std::mem::size_of::<blokus_core::Position>()
            + 48;
        let fits = matches!(games.checked_mul(per_game), Some(n) if n <= isize::MAX as usize);
        if !fits {
            return Err(Class::InvalidArgument.err(
                py,
                format!(
                    "a batch of {games} {} games is too large: it would need more than 2**63 \
                     bytes",
                    v.id()
                ),
            ));
        }
        let mut shape = vec![games, nc];
        if grid.shape[0] > 1 {
            shape.push(grid.shape[0]);
        }
        shape.extend_from_slice(&grid.shape[1..]);
        let observation = zeros(py, &shape)?.unbind();
        let legal_action_mask = zeros(py, &[games, t.num_placements()])?.unbind();
        let rewards = zeros(py, &[games, v.num_players()])?.unbind();
        let current_player = zeros(py, &[games])?.unbind();
        let current_color = zeros(py, &[games])?.unbind();
        let terminated = zeros(py, &[games])?.unbind();
        let batch = Batch::try_new(t, games).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!(
                "no memory for a batch of {games} {} games",
                v.id()
            ))
        })?;
        let core = BatchCore {
            t: Arc::clone(t),
            batch: Mutex::new(batch),
            games,
            threads: threads.clamp(1, games),
            lose,
            observation,
            legal_action_mask,
            rewards,
            current_player,
            current_color,
            terminated,
        };
        {
            let written = core.written(py)?;
            let mut batch = core.lock(py)?;
            core.write(py, &mut batch, written)?;
        }
        Ok(core)
    }

    /// Resets the games where `which` is true (all if `None`); other games keep their state and
    /// any rewards of the last step.
    #[pyo3(signature = (which=None))]
    fn reset(&self, py: Python<'_>, which: Option<PyReadonlyArray1<'_, bool>>) -> PyResult<()> {
        let mut batch = self.lock(py)?;
        // Copied, and the array let go, before the batch's arrays are borrowed for writing:
        // the mask is often one of them (`env.reset(env.terminated)`).
        let which = match which {
            None => None,
            Some(w) => {
                let w = w.as_slice()?;
                if w.len() != self.games {
                    return Err(Class::InvalidArgument.err(
                        py,
                        format!(
                            "reset mask has {} entries for {} games",
                            w.len(),
                            self.games
                        ),
                    ));
                }
                Some(w.to_vec())
            }
        };
        // Borrowed before anything changes, so a batch whose arrays cannot be written is
        // left as it was.
        let written = self.written(py)?;
        batch.reset(&self.t, which.as_deref());
        self.write(py, &mut batch, written)
    }

    /// Plays one action per game (ignored for finished games); an illegal action raises and
    /// changes nothing, or with `illegal_action="lose"` loses its game. An action that is no
    /// placement id raises either way.
    fn step(&self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let mut batch = self.lock(py)?;
        let actions_array = actions;
        let actions = actions_array.as_slice()?;
        if actions.len() != self.games {
            return Err(Class::InvalidArgument.err(
                py,
                format!("{} actions for {} games", actions.len(), self.games),
            ));
        }
        // Copied, so no Python thread can change the actions while the GIL is released, and
        // let go before the batch's arrays are borrowed for writing (they may be one of them).
        let actions = actions.to_vec();
        drop(actions_array);
        let written = self.written(py)?;
        let (t, games, lose) = (&self.t, &mut *batch, self.lose);
        let stepped = py.detach(|| {
            if lose {
                games.step_or_lose(t, &actions)
            } else {
                games.step(t, &actions)
            }
        });
        stepped.map_err(|e| step_error(py, t, e))?;
        self.write(py, &mut batch, written)
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.games
    }
}

impl BatchCore {
    /// The games, or `BusyError` if another thread is stepping or resetting them.
    fn lock(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Batch>> {
        match self.batch.try_lock() {
            Ok(guard) => Ok(guard),
            // A panic cannot leave a batch half-stepped (steps check, then play), so the
            // games are sound.
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(TryLockError::WouldBlock) => Err(Class::Busy.err(
                py,
                "this batch is in use by another thread (stepping or resetting); give each \
                 thread its own BatchEnv",
            )),
        }
    }

    /// The arrays, borrowed for writing; an error if one was made read-only.
    fn written<'py>(&self, py: Python<'py>) -> PyResult<Written<'py>> {
        fn borrow<'py, T: Element, D: numpy::ndarray::Dimension>(
            py: Python<'py>,
            array: &Py<numpy::PyArray<T, D>>,
            name: &str,
        ) -> PyResult<PyReadwriteArray<'py, T, D>> {
            array.bind(py).try_readwrite().map_err(|e| {
                Class::Blokus.err(
                    py,
                    format!(
                        "cannot write the batch's {name} array ({e}): it was made read-only \
                         or is borrowed; the arrays are the batch's to write"
                    ),
                )
            })
        }
        Ok(Written {
            observation: borrow(py, &self.observation, "observation")?,
            legal_action_mask: borrow(py, &self.legal_action_mask, "legal_action_mask")?,
            rewards: borrow(py, &self.rewards, "rewards")?,
            current_player: borrow(py, &self.current_player, "current_player")?,
            current_color: borrow(py, &self.current_color, "current_color")?,
            terminated: borrow(py, &self.terminated, "terminated")?,
        })
    }

    /// Writes every game's outputs into the arrays (GIL released).
    fn write(&self, py: Python<'_>, batch: &mut Batch, mut w: Written<'_>) -> PyResult<()> {
        let out = Outputs {
            observation: w.observation.as_slice_mut()?,
            legal_action_mask: w.legal_action_mask.as_slice_mut()?,
            rewards: w.rewards.as_slice_mut()?,
            current_player: w.current_player.as_slice_mut()?,
            current_color: w.current_color.as_slice_mut()?,
            terminated: w.terminated.as_slice_mut()?,
        };
        let (t, threads) = (&self.t, self.threads);
        py.detach(|| batch.write(t, out, threads));
        Ok(())
    }
}

/// Results of games played inside Rust.
#[pyclass(frozen, module = "blokus._blokus")]
struct SelfplayCore {
    #[pyo3(get)]
    points: Py<PyArray2<i32>>,
    #[pyo3(get)]
    scores: Py<PyArray2<i32>>,
    #[pyo3(get)]
    plies: Py<PyArray1<u32>>,
    #[pyo3(get)]
    winners: Py<PyArray2<bool>>,
    #[pyo3(get)]
    seconds: f64,
    #[pyo3(get)]
    moves: Option<Vec<Vec<u32>>>,
}

/// The most threads a call may ask for.
const MAX_THREADS: usize = 256;
/// The most games one call of `selfplay_games` plays (`blokus.selfplay` plays a long run in
/// slices of at most this many, so memory grows with the games done).
const MAX_GAMES_PER_CALL: usize = 1 << 20;

/// How often a long call checks for signals (Ctrl-C).
const SIGNAL_CHECKS: Duration = Duration::from_millis(50);

/// Runs `work` without the GIL, giving it a `go_on` that checks for signals every
/// [`SIGNAL_CHECKS`]; a Ctrl-C stops it with `KeyboardInterrupt`.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&mut dyn FnMut() -> bool) -> Option<T> + Send,
) -> PyResult<T> {
    let mut stopped: Option<PyErr> = None;
    let done = py.detach(|| {
        let mut last = Instant::now();
        work(&mut || {
            if last.elapsed() < SIGNAL_CHECKS {
                return true;
            }
            last = Instant::now();
            match Python::attach(|py| py.check_signals()) {
                Ok(()) => true,
                Err(e) => {
                    stopped = Some(e);
                    false
                }
            }
        })
    });
    match (done, stopped) {
        (Some(v), _) => Ok(v),
        (None, Some(e)) => Err(e),
        (None, None) => Err(Class::Blokus.err(py, "stopped without a reason")),
    }
}

// The arguments of blokus.selfplay, one for one.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (tables, first, games, seed, threads, policy, keep_moves, simulations=200))]
fn selfplay_games(
    py: Python<'_>,
    tables: &TablesCore,
    first: u64,
    games: usize,
    seed: u64,
    threads: usize,
    policy: &str,
    keep_moves: bool,
    simulations: u64,
) -> PyResult<SelfplayCore> {
    let policy = match policy {
        "uniform" => Some(Policy::Uniform),
        "greedy" => Some(Policy::Greedy),
        "mcts" => None,
        other => {
            return Err(Class::InvalidArgument.err(
                py,
                format!(
                    "policy must be 'uniform', 'greedy' or 'mcts', not {}",
                    excerpt(other)
                ),
            ))
        }
    };
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(Class::InvalidArgument.err(
            py,
            format!("threads must be 1 to {MAX_THREADS}, not {threads}"),
        ));
    }
    if games > MAX_GAMES_PER_CALL {
        return Err(Class::InvalidArgument.err(
            py,
            format!("at most {MAX_GAMES_PER_CALL} games a call, not {games}"),
        ));
    }
    let t = Arc::clone(&tables.t);
    let (records, seconds) = py.detach(|| {
        let start = Instant::now();
        let range = first..first.saturating_add(games as u64);
        let r = match policy {
            Some(policy) => selfplay(&t, range, seed, threads, policy, keep_moves),
            None => search_selfplay(
                &t,
                range,
                seed,
                threads,
                SearchConfig::for_variant(t.variant()),
                simulations,
                keep_moves,
            ),
        };
        (r, start.elapsed().as_secs_f64())
    });
    let v = t.variant();
    let nc = v.num_colors();
    let np = v.num_players();
    let mut points = Vec::with_capacity(games * nc);
    let mut scores = Vec::with_capacity(games * np);
    let mut winners = Vec::with_capacity(games * np);
    let mut plies = Vec::with_capacity(games);
    for r in &records {
        points.extend_from_slice(&r.points);
        let s = blokus_core::scores(v, &r.points);
        let w = blokus_core::winners(&s);
        winners.extend((0..np).map(|p| w.contains(&p)));
        scores.extend(s);
        plies.push(r.plies);
    }
    let shape = |v: Vec<i32>, cols: usize| -> PyResult<Py<PyArray2<i32>>> {
        Ok(v.into_pyarray(py).reshape([games, cols])?.unbind())
    };
    Ok(SelfplayCore {
        points: shape(points, nc)?,
        scores: shape(scores, np)?,
        plies: plies.into_pyarray(py).unbind(),
        winners: winners.into_pyarray(py).reshape([games, np])?.unbind(),
        seconds,
        moves: keep_moves.then(|| records.into_iter().map(|r| r.moves).collect()),
    })
}

/// Lists the legal moves at every position of `games` random games (each game's positions
/// listed one after another): `(moves, seconds)`, timing the listing only.
#[pyfunction]
fn list_moves(py: Python<'_>, tables: &TablesCore, games: usize, seed: u64) -> (u64, f64) {
    let t = Arc::clone(&tables.t);
    py.detach(move || list_in_games(&t, games, seed))
}

/// Enumerates the legal moves at every position of `games` random games as the incremental
/// playout keeps them: `(moves, seconds)`, timing the enumeration only.
#[pyfunction]
fn enumerate_moves(py: Python<'_>, tables: &TablesCore, games: usize, seed: u64) -> (u64, f64) {
    let t = Arc::clone(&tables.t);
    py.detach(move || enumerate_in_playouts(&t, games, seed))
}

/// Steps a batch of `actions.shape[1]` games through the rows of `actions` in Rust, writing
/// every output as the batch environment does: the seconds taken (the Rust side of the batch
/// environment's benchmark).
#[pyfunction]
fn time_batch_replay(
    py: Python<'_>,
    tables: &TablesCore,
    actions: PyReadonlyArray2<'_, i64>,
    threads: usize,
) -> PyResult<f64> {
    let view = actions.as_array();
    let games = view.ncols();
    let actions = view.iter().copied().collect::<Vec<i64>>();
    let t = Arc::clone(&tables.t);
    let t = &t;
    py.detach(move || time_replay(t, &actions, games, threads.clamp(1, MAX_THREADS)))
        .map_err(|e| step_error(py, t, e))
}

/// The Python exception for a batch step that could not be taken: `IllegalMoveError` with
/// `game` (its index), `move` (the placement's text, `None` if the action is no placement id),
/// `reason` (the rule's short name, `no_placement` for an action that is no id) and `cell`.
fn step_error(py: Python<'_>, t: &Tables, e: StepError) -> PyErr {
    match e {
        StepError::Illegal {
            game,
            action,
            reason,
        } => {
            let v = t.variant();
            let (text, kind, cell, why) = match &reason {
                Some(r) => (
                    u32::try_from(action).ok().map(|id| t.move_text(id)),
                    r.kind(),
                    r.cell().map(|c| v.cell_name(c)),
                    r.describe(v),
                ),
                None => (
                    None,
                    "no_placement",
                    None,
                    format!(
                        "no placement has that id (ids are 0..{})",
                        t.num_placements() - 1
                    ),
                ),
            };
            let shown = text.as_deref().map_or(String::new(), |m| format!(" ({m})"));
            Class::IllegalMove.with(
                py,
                format!("game {game}: action {action}{shown} is not a legal placement: {why}"),
                &[
                    ("game", value(py, game)),
                    ("move", value(py, text)),
                    ("reason", value(py, kind)),
                    ("cell", value(py, cell)),
                ],
            )
        }
    }
}

/// Pentobi's column letters for a 0-based column (0 to a million).
#[pyfunction]
fn column_name(py: Python<'_>, x: i64) -> PyResult<String> {
    match i32::try_from(x) {
        Ok(x) if (0..=1_000_000).contains(&x) => Ok(blokus_core::column_name(x)),
        _ => Err(Class::InvalidArgument.err(py, format!("a column is 0 to 1000000, not {x}"))),
    }
}

#[pyfunction]
fn builtin_variant_ids() -> Vec<&'static str> {
    builtin_ids()
}

#[pyfunction]
fn builtin_variant_spec(id: &str) -> Option<&'static str> {
    builtin_spec_json(id)
}

/// The CPU level the hot loops run at (`x86-64`, `x86-64-v2`, `x86-64-v3`, `x86-64-v4`, or the
/// architecture's name off x86-64).
#[pyfunction]
fn cpu_level() -> &'static str {
    blokus_core::cpu_level().name()
}

/// The levels this CPU can run, lowest first.
#[pyfunction]
fn cpu_levels_supported() -> Vec<&'static str> {
    blokus_core::CpuLevel::supported()
        .into_iter()
        .map(|l| l.name())
        .collect()
}

#[pymodule]
fn _blokus(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // A bad BLOKUS_CPU_LEVEL is refused when the extension is imported, not later in a loop.
    blokus_core::try_cpu_level().map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.0))?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add("MAX_GAMES_PER_CALL", MAX_GAMES_PER_CALL)?;
    m.add_class::<TablesCore>()?;
    m.add_class::<BoardCore>()?;
    m.add_class::<SelfplayCore>()?;
    m.add_class::<BatchCore>()?;
    m.add_class::<SearchCore>()?;
    m.add_function(wrap_pyfunction!(selfplay_games, m)?)?;
    m.add_function(wrap_pyfunction!(run_evaluated_together, m)?)?;
    m.add_function(wrap_pyfunction!(list_moves, m)?)?;
    m.add_function(wrap_pyfunction!(enumerate_moves, m)?)?;
    m.add_function(wrap_pyfunction!(time_batch_replay, m)?)?;
    m.add_function(wrap_pyfunction!(column_name, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_variant_ids, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_variant_spec, m)?)?;
    m.add_function(wrap_pyfunction!(cpu_level, m)?)?;
    m.add_function(wrap_pyfunction!(cpu_levels_supported, m)?)?;
    Ok(())
}
