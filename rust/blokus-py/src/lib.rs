//! The Python extension `blokus._blokus`: conversions and GIL handling over `blokus-core`.
//! No rules live here.

use std::sync::Arc;
use std::time::Instant;

use blokus_core::{
    builtin_ids, builtin_spec_json, enumerate_in_playouts, list_in_games, pieces_of_cells, rewards,
    scores, selfplay, time_replay, Batch, Board, Grid, Outputs, Placement, PlayError, Policy, Rng,
    Scoring, Setup, SetupError, SetupTurn, StepError, Tables, Variant,
};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyType};

/// Raises one of the exception classes of `blokus.errors`.
fn error(py: Python<'_>, class: &str, message: String) -> PyErr {
    match py.import("blokus.errors").and_then(|m| m.getattr(class)) {
        Ok(cls) => match cls.cast_into::<PyType>() {
            Ok(ty) => PyErr::from_type(ty, message),
            Err(_) => PyValueError::new_err(message),
        },
        Err(e) => e,
    }
}

/// `InvalidPositionError` for a setup, with `kind` (the problem's short name), `color` and
/// `placement` (`(colour, index)` of the placement at fault) set where they apply.
fn setup_error(py: Python<'_>, t: &Tables, e: SetupError) -> PyErr {
    let err = error(py, "InvalidPositionError", e.describe(t));
    let value = err.value(py);
    let set = value
        .setattr("kind", e.kind())
        .and_then(|()| value.setattr("color", e.color()))
        .and_then(|()| value.setattr("placement", e.placement()));
    match set {
        Ok(()) => err,
        Err(failed) => failed,
    }
}

fn scoring(py: Python<'_>, name: Option<&str>, default: Scoring) -> PyResult<Scoring> {
    match name {
        None => Ok(default),
        Some("advanced") => Ok(Scoring::Advanced),
        Some("basic") => Ok(Scoring::Basic),
        Some(other) => Err(error(
            py,
            "BlokusError",
            format!("scoring must be 'advanced' or 'basic', not {other:?}"),
        )),
    }
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
    fn builtin(py: Python<'_>, id: &str) -> PyResult<TablesCore> {
        match blokus_core::tables(id) {
            Some(t) => Ok(TablesCore { t }),
            None => Err(error(
                py,
                "UnknownVariantError",
                format!(
                    "unknown variant {id:?} (known: {})",
                    builtin_ids().join(", ")
                ),
            )),
        }
    }

    #[staticmethod]
    fn from_json(py: Python<'_>, json: &str) -> PyResult<TablesCore> {
        let variant =
            Variant::from_json(json).map_err(|e| error(py, "InvalidVariantError", e.0))?;
        Ok(TablesCore {
            t: Arc::new(py.detach(|| Tables::new(variant))),
        })
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
    fn cell_name(&self, cell: usize) -> PyResult<String> {
        if cell < self.t.variant().num_cells() {
            Ok(self.t.variant().cell_name(cell))
        } else {
            Err(PyValueError::new_err(format!("no cell {cell}")))
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
    fn placement_piece(&self, id: u32) -> PyResult<usize> {
        Ok(self.placement(id)?.piece())
    }
    fn placement_cells(&self, id: u32) -> PyResult<Vec<u16>> {
        Ok(self.placement(id)?.cells().to_vec())
    }
    fn move_text(&self, id: u32) -> PyResult<String> {
        self.placement(id)?;
        Ok(self.t.move_text(id))
    }
    fn parse_move(&self, py: Python<'_>, text: &str) -> PyResult<u32> {
        self.t.parse_move(text).map_err(|e| {
            error(
                py,
                "InvalidMoveError",
                format!("invalid move {text:?}: {e}"),
            )
        })
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
    fn cells_text(&self, cells: Vec<u16>) -> PyResult<String> {
        let n = self.t.variant().num_cells();
        if let Some(&bad) = cells.iter().find(|&&c| usize::from(c) >= n) {
            return Err(PyValueError::new_err(format!(
                "no cell {bad} (this board has {n})"
            )));
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
    fn pieces_of_cells(&self, colors: Vec<i64>) -> PyResult<Vec<GroupInfo>> {
        let v = self.t.variant();
        if colors.len() != v.num_cells() {
            return Err(PyValueError::new_err(format!(
                "{} colours given for {} cells",
                colors.len(),
                v.num_cells()
            )));
        }
        let colors: Vec<Option<usize>> = colors
            .iter()
            .map(|&c| match c {
                -1 => Ok(None),
                c if c >= 0 && (c as usize) < v.num_colors() => Ok(Some(c as usize)),
                c => Err(PyValueError::new_err(format!("no colour {c}"))),
            })
            .collect::<PyResult<_>>()?;
        Ok(pieces_of_cells(&self.t, &colors)
            .into_iter()
            .map(|g| (g.color, g.cells, g.placement))
            .collect())
    }
}

impl TablesCore {
    fn placement(&self, id: u32) -> PyResult<&Placement> {
        self.t.placement(id).ok_or_else(|| {
            PyValueError::new_err(format!(
                "no placement {id} (this variant has {})",
                self.t.num_placements()
            ))
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
            return Err(PyValueError::new_err(format!(
                "the table has {} items for {} placements",
                table.len(),
                self.board.tables().num_placements()
            )));
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
    fn push_text(&mut self, py: Python<'_>, text: &str) -> PyResult<u32> {
        self.board.play_text(text).map_err(|e| match e {
            PlayError::Text(t) => error(
                py,
                "InvalidMoveError",
                format!("invalid move {text:?}: {t}"),
            ),
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
            return Err(PyValueError::new_err(format!("no colour {color}")));
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
    fn reference_legal_ids(&self, color: usize) -> PyResult<Vec<u32>> {
        if color >= self.board.tables().variant().num_colors() {
            return Err(PyValueError::new_err(format!("no colour {color}")));
        }
        Ok(blokus_core::reference::legal_moves(
            self.board.tables(),
            self.board.position(),
            color,
        ))
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
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let board = self.board.clone();
        py.detach(move || board.perft(depth))
    }
    /// `(placement id, count)` below each legal move, sorted by id (GIL released).
    fn perft_divide(&self, py: Python<'_>, depth: u32) -> Vec<(u32, u64)> {
        let board = self.board.clone();
        py.detach(move || board.perft_divide(depth))
    }
    /// Perft by the plain reference generator of the core alone (slow; GIL released).
    fn reference_perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let board = self.board.clone();
        py.detach(move || blokus_core::reference::perft(board.tables(), board.position(), depth))
    }
    fn __eq__(&self, other: &BoardCore) -> bool {
        Arc::ptr_eq(self.board.tables(), other.board.tables())
            && self.board.position() == other.board.position()
            && self.board.moves().eq(other.board.moves())
    }
}

impl BoardCore {
    fn play_error(&self, py: Python<'_>, e: PlayError) -> PyErr {
        let t = self.board.tables();
        match e {
            PlayError::Text(t) => error(py, "InvalidMoveError", t.to_string()),
            PlayError::UnknownId(id) => error(
                py,
                "InvalidMoveError",
                format!(
                    "no placement {id} in {} (ids are 0..{})",
                    t.variant().id(),
                    t.num_placements()
                ),
            ),
            PlayError::Illegal { id, reason } => {
                let who = self.board.turn().map_or(String::new(), |c| {
                    format!(" for {}", t.variant().colors()[c])
                });
                error(
                    py,
                    "IllegalMoveError",
                    format!(
                        "illegal move {}{who}: {}",
                        t.move_text(id),
                        reason.describe(t.variant())
                    ),
                )
            }
        }
    }
}

/// A batch of games stepped together, writing into numpy arrays it owns.
#[pyclass(module = "blokus._blokus")]
struct BatchCore {
    t: Arc<Tables>,
    batch: Batch,
    threads: usize,
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

#[pymethods]
impl BatchCore {
    #[new]
    fn new(
        py: Python<'_>,
        tables: &TablesCore,
        games: usize,
        threads: usize,
    ) -> PyResult<BatchCore> {
        let t = &tables.t;
        let grid = Grid::new(t.variant());
        let nc = t.variant().num_colors();
        let mut shape = vec![games, nc];
        if grid.shape[0] > 1 {
            shape.push(grid.shape[0]);
        }
        shape.extend_from_slice(&grid.shape[1..]);
        let mut core = BatchCore {
            t: Arc::clone(t),
            batch: Batch::new(t, games),
            threads: threads.max(1),
            observation: PyArrayDyn::zeros(py, shape, false).unbind(),
            legal_action_mask: PyArray2::zeros(py, [games, t.num_placements()], false).unbind(),
            rewards: PyArray2::zeros(py, [games, t.variant().num_players()], false).unbind(),
            current_player: PyArray1::zeros(py, games, false).unbind(),
            current_color: PyArray1::zeros(py, games, false).unbind(),
            terminated: PyArray1::zeros(py, games, false).unbind(),
        };
        core.write_all(py)?;
        Ok(core)
    }

    /// Resets the games where `which` is true (all if `None`); other games keep their state and
    /// any rewards of the last step.
    #[pyo3(signature = (which=None))]
    fn reset(&mut self, py: Python<'_>, which: Option<PyReadonlyArray1<'_, bool>>) -> PyResult<()> {
        match which {
            None => self.batch.reset(&self.t, None),
            Some(w) => {
                let w = w.as_slice()?;
                if w.len() != self.batch.len() {
                    return Err(PyValueError::new_err(format!(
                        "reset mask has {} entries for {} games",
                        w.len(),
                        self.batch.len()
                    )));
                }
                self.batch.reset(&self.t, Some(w));
            }
        }
        self.write_all(py)
    }

    /// Plays one action per game (ignored for finished games); an illegal action raises and
    /// changes nothing.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let actions = actions.as_slice()?;
        if actions.len() != self.batch.len() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} games",
                actions.len(),
                self.batch.len()
            )));
        }
        // Copied, so no Python thread can change the actions while the GIL is released.
        let actions = actions.to_vec();
        let (batch, t) = (&mut self.batch, &self.t);
        py.detach(|| batch.step(t, &actions))
            .map_err(|e| step_error(py, e))?;
        self.write_all(py)
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.batch.len()
    }
}

impl BatchCore {
    fn write_all(&mut self, py: Python<'_>) -> PyResult<()> {
        let t = &self.t;
        let mut obs = self.observation.bind(py).readwrite();
        let mut mask = self.legal_action_mask.bind(py).readwrite();
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut player = self.current_player.bind(py).readwrite();
        let mut color = self.current_color.bind(py).readwrite();
        let mut term = self.terminated.bind(py).readwrite();
        let (obs, mask, rewards) = (
            obs.as_slice_mut()?,
            mask.as_slice_mut()?,
            rewards.as_slice_mut()?,
        );
        let (player, color, term) = (
            player.as_slice_mut()?,
            color.as_slice_mut()?,
            term.as_slice_mut()?,
        );
        let out = Outputs {
            observation: obs,
            legal_action_mask: mask,
            rewards,
            current_player: player,
            current_color: color,
            terminated: term,
        };
        let (batch, threads) = (&mut self.batch, self.threads);
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

// The arguments of blokus.selfplay, one for one.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (tables, first, games, seed, threads, policy, keep_moves))]
fn selfplay_games(
    py: Python<'_>,
    tables: &TablesCore,
    first: u64,
    games: usize,
    seed: u64,
    threads: usize,
    policy: &str,
    keep_moves: bool,
) -> PyResult<SelfplayCore> {
    let policy = match policy {
        "uniform" => Policy::Uniform,
        "greedy" => Policy::Greedy,
        other => {
            return Err(error(
                py,
                "BlokusError",
                format!("policy must be 'uniform' or 'greedy', not {other:?}"),
            ))
        }
    };
    let t = Arc::clone(&tables.t);
    let (records, seconds) = py.detach(|| {
        let start = Instant::now();
        let range = first..first.saturating_add(games as u64);
        let r = selfplay(&t, range, seed, threads, policy, keep_moves);
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
    py.detach(move || time_replay(&t, &actions, games, threads.max(1)))
        .map_err(|e| step_error(py, e))
}

/// The Python exception for a batch step that could not be taken.
fn step_error(py: Python<'_>, e: StepError) -> PyErr {
    match e {
        StepError::Illegal { game, action } => error(
            py,
            "IllegalMoveError",
            format!("game {game}: action {action} is not a legal placement"),
        ),
    }
}

/// Pentobi's column letters for a 0-based column.
#[pyfunction]
fn column_name(x: u32) -> String {
    blokus_core::column_name(x as i32)
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
    m.add_class::<TablesCore>()?;
    m.add_class::<BoardCore>()?;
    m.add_class::<SelfplayCore>()?;
    m.add_class::<BatchCore>()?;
    m.add_function(wrap_pyfunction!(selfplay_games, m)?)?;
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
