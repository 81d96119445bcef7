//! A deliberately simple reference for the Blokus 3D rules, checked against the fast generator.
//!
//! The reference shares nothing with the engine but move text: it reads the four structures from
//! the picture in `../shared/RULES.md`, takes the pieces as RULES.md lists them, finds the 24
//! rotations by trying every 3x3 matrix, keeps the board as a map from coordinates to colours,
//! and tries every piece in every rotation at every offset, applying the rules as written. On
//! random games it must list exactly the engine's legal moves at every turn, agree with
//! `why_illegal` on every placement id, and knock out (or skip) the same colours.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use blokus_core::rng::Rng;
use blokus_core::stacking::{DRAWS, LATE_DRAWS};
use blokus_core::table::Tables;
use blokus_core::{tables, Board, Variant};

type Cube = [i32; 3];

const PIECES: [(&str, &[Cube]); 11] = [
    ("I2", &[[0, 0, 0], [1, 0, 0]]),
    ("I3", &[[0, 0, 0], [1, 0, 0], [2, 0, 0]]),
    ("V3", &[[0, 0, 0], [1, 0, 0], [0, 1, 0]]),
    ("I4", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]),
    ("L4", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]]),
    ("T4", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]]),
    ("O4", &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]),
    ("S4", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]]),
    ("tripod", &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    ("screw-right", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]]),
    ("screw-left", &[[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 1, 1]]),
];

/// The structures as RULES.md draws them: name -> lines, back row first.
fn pictures() -> HashMap<String, Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/RULES.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut lines = text.lines().skip_while(|l| !l.starts_with("tower (4x4)"));
    let header = lines.next().expect("the structures' picture");
    let names = ["tower", "wall", "steps", "pyramid"];
    let at: Vec<usize> = names.iter().map(|n| header.find(n).unwrap()).collect();
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for line in lines.take_while(|l| !l.starts_with("```")) {
        for (name, &i) in names.iter().zip(&at) {
            if let Some(token) = line.get(i..).and_then(|s| s.split_whitespace().next()) {
                if !line[i..].starts_with(' ') {
                    out.entry(name.to_string()).or_default().push(token.into());
                }
            }
        }
    }
    out
}

/// Column limits `(x, y) -> L` of a picture for `players` players.
fn limits(picture: &[String], players: i32) -> HashMap<(i32, i32), i32> {
    let n = picture.len() as i32;
    let mut out = HashMap::new();
    for (line, row) in picture.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if let Some(l) = ch.to_digit(10) {
                let y = n - 1 - line as i32;
                out.insert((x as i32, y), (l as i32 - (4 - players)).max(1));
            }
        }
    }
    out
}

fn rotations() -> Vec<[[i32; 3]; 3]> {
    let mut out = Vec::new();
    for code in 0..3i32.pow(9) {
        let mut m = [[0; 3]; 3];
        let mut k = code;
        for cell in m.iter_mut().flatten() {
            *cell = k % 3 - 1;
            k /= 3;
        }
        let dot = |a: usize, b: usize| (0..3).map(|i| m[i][a] * m[i][b]).sum::<i32>();
        let orthonormal = (0..3).all(|a| (0..3).all(|b| dot(a, b) == i32::from(a == b)));
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        if orthonormal && det == 1 {
            out.push(m);
        }
    }
    assert_eq!(out.len(), 24);
    out
}

fn normalized(cubes: &[Cube]) -> Vec<Cube> {
    let min = |i: usize| cubes.iter().map(|c| c[i]).min().unwrap();
    let (x, y, z) = (min(0), min(1), min(2));
    let mut v: Vec<Cube> = cubes
        .iter()
        .map(|c| [c[0] - x, c[1] - y, c[2] - z])
        .collect();
    v.sort();
    v
}

fn cube_name([x, y, z]: Cube) -> String {
    format!("{}{}@{}", (b'a' + x as u8) as char, y + 1, z + 1)
}

fn move_text(cubes: &[Cube]) -> String {
    let mut v = cubes.to_vec();
    v.sort_by_key(|c| (c[2], c[1], c[0]));
    v.into_iter().map(cube_name).collect::<Vec<_>>().join(",")
}

fn parse_text(text: &str) -> Vec<Cube> {
    text.split(',')
        .map(|item| {
            let (cell, level) = item.split_once('@').unwrap();
            let x = i32::from(cell.as_bytes()[0] - b'a');
            [
                x,
                cell[1..].parse::<i32>().unwrap() - 1,
                level.parse::<i32>().unwrap() - 1,
            ]
        })
        .collect()
}

struct Reference {
    limits: HashMap<(i32, i32), i32>,
    /// Each piece's distinct rotations, normalized.
    shapes: Vec<Vec<Vec<Cube>>>,
    colors: usize,
    skip: bool,
    board: HashMap<Cube, usize>,
    used: Vec<Vec<usize>>,
    out: Vec<bool>,
}

impl Reference {
    fn new(limits: HashMap<(i32, i32), i32>, colors: usize, skip: bool) -> Reference {
        let rots = rotations();
        let shapes = PIECES
            .iter()
            .map(|(_, cubes)| {
                let mut all: Vec<Vec<Cube>> = Vec::new();
                for m in &rots {
                    let turned: Vec<Cube> = cubes
                        .iter()
                        .map(|c| {
                            let r = |i: usize| (0..3).map(|j| m[i][j] * c[j]).sum::<i32>();
                            [r(0), r(1), r(2)]
                        })
                        .collect();
                    let n = normalized(&turned);
                    if !all.contains(&n) {
                        all.push(n);
                    }
                }
                all
            })
            .collect();
        Reference {
            limits,
            shapes,
            colors,
            skip,
            board: HashMap::new(),
            used: vec![Vec::new(); colors],
            out: vec![false; colors],
        }
    }

    fn legal(&self, color: usize) -> BTreeSet<String> {
        let width = self.limits.keys().map(|k| k.0).max().unwrap() + 1;
        let depth = self.limits.keys().map(|k| k.1).max().unwrap() + 1;
        let high = *self.limits.values().max().unwrap();
        let first = self.used[color].is_empty();
        let faces = |[x, y, z]: Cube| {
            [
                [x - 1, y, z],
                [x + 1, y, z],
                [x, y - 1, z],
                [x, y + 1, z],
                [x, y, z - 1],
                [x, y, z + 1],
            ]
        };
        let mut out = BTreeSet::new();
        for (piece, shapes) in self.shapes.iter().enumerate() {
            if self.used[color].contains(&piece) {
                continue;
            }
            for shape in shapes {
                // Shapes start at 0 on every axis: try every offset inside the bounding box.
                let size = |i: usize| shape.iter().map(|c| c[i]).max().unwrap();
                for dx in 0..width - size(0) {
                    for dy in 0..depth - size(1) {
                        for dz in 0..high - size(2) {
                            let cubes: Vec<Cube> = shape
                                .iter()
                                .map(|c| [c[0] + dx, c[1] + dy, c[2] + dz])
                                .collect();
                            let fits = cubes.iter().all(|&[x, y, z]| {
                                self.limits.get(&(x, y)).is_some_and(|&l| z < l)
                                    && !self.board.contains_key(&[x, y, z])
                                    && (z == 0
                                        || self.board.contains_key(&[x, y, z - 1])
                                        || cubes.contains(&[x, y, z - 1]))
                            });
                            if !fits {
                                continue;
                            }
                            let touches = |own_only: bool| {
                                cubes.iter().any(|&c| {
                                    faces(c).iter().any(|n| {
                                        self.board.get(n).is_some_and(|&d| !own_only || d == color)
                                    })
                                })
                            };
                            let ok = if !first {
                                touches(true)
                            } else if color == 0 {
                                true
                            } else {
                                touches(false) && cubes.iter().any(|c| c[2] == 0)
                            };
                            if ok {
                                out.insert(move_text(&cubes));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn play(&mut self, color: usize, text: &str) {
        let cubes = parse_text(text);
        let shape = normalized(&cubes);
        let piece = self
            .shapes
            .iter()
            .position(|s| s.contains(&shape))
            .expect("a piece");
        self.used[color].push(piece);
        for c in cubes {
            assert!(self.board.insert(c, color).is_none());
        }
    }

    /// The next colour to move after `after` (itself last) and its moves, knocking out (or
    /// skipping) the colours that cannot place on their turn.
    fn next(&mut self, after: usize) -> Option<(usize, BTreeSet<String>)> {
        for i in 1..=self.colors {
            let d = (after + i) % self.colors;
            if self.out[d] {
                continue;
            }
            let legal = self.legal(d);
            if !legal.is_empty() {
                return Some((d, legal));
            }
            if !self.skip {
                self.out[d] = true;
            }
        }
        None
    }
}

/// Plays `games` random games choosing among the reference's moves, comparing at every turn.
fn check(t: Arc<Tables>, limits: HashMap<(i32, i32), i32>, games: usize, seed: u64) {
    let v = &t.variant;
    let skip = matches!(
        v.rules,
        blokus_core::variant::Rules::Stacking { skip_blocked: true }
    );
    // The structure the engine built is the reference's.
    let mut cells: Vec<Cube> = v.cells.clone();
    cells.sort();
    let mut expected: Vec<Cube> = limits
        .iter()
        .flat_map(|(&(x, y), &l)| (0..l).map(move |z| [x, y, z]))
        .collect();
    expected.sort();
    assert_eq!(cells, expected, "{}", v.id);
    let texts: Vec<String> = (0..t.num_placements() as u32)
        .map(|id| blokus_core::notation::move_text(&t, id))
        .collect();
    let mut rng = Rng::new(seed);
    let mut draw = Rng::new(seed + 1);
    for game in 0..games {
        let mut r = Reference::new(limits.clone(), v.num_colors(), skip);
        let mut b = Board::new(Arc::clone(&t));
        let mut turn = Some((0, r.legal(0)));
        while let Some((color, legal)) = turn {
            let at = format!("{} game {game} ply {}", v.id, b.ply());
            assert_eq!(b.turn(), Some(color), "{at}");
            let ours: BTreeSet<String> =
                b.legal_moves().iter().map(|&id| b.move_text(id)).collect();
            assert_eq!(ours, legal, "{at}");
            assert_eq!(b.count_moves(), legal.len(), "{at}");
            // The sampler (draws, then a count of the legal candidates) gives a legal move
            // exactly when there is one, with the candidate lists as wide as the structure,
            // for each number of draws it uses (and none).
            for draws in [0, LATE_DRAWS, DRAWS] {
                let (pos, c) = (b.position(), color);
                let drawn = blokus_core::stacking::sample_drawing(pos, &t, c, &mut draw, draws);
                assert_eq!(drawn.is_some(), !legal.is_empty(), "{at}");
                if let Some(m) = drawn {
                    assert!(legal.contains(&b.move_text(m)), "{at}: drew {m}");
                }
            }
            for (id, text) in texts.iter().enumerate() {
                let allowed = b.why_illegal(id as u32).unwrap().is_none();
                assert_eq!(allowed, legal.contains(text), "{at}: {text}");
            }
            let pick = legal
                .iter()
                .nth(rng.below(legal.len() as u64) as usize)
                .unwrap();
            r.play(color, pick);
            b.play_text(pick).unwrap();
            turn = r.next(color);
            if !skip {
                let out: u8 = (0..v.num_colors())
                    .filter(|&c| r.out[c])
                    .map(|c| 1 << c)
                    .sum();
                if turn.is_some() {
                    assert_eq!(b.position().out, out, "{at}");
                }
            }
        }
        assert_eq!(b.turn(), None, "{} game {game}", v.id);
    }
}

#[test]
fn the_built_in_structures_are_drawn_as_in_rules_md() {
    let pics = pictures();
    for (name, picture) in &pics {
        let v = &tables(&format!("3d_{name}")).unwrap().variant;
        assert_eq!(&v.structure.as_ref().unwrap().rows, picture, "{name}");
    }
    assert_eq!(pics.len(), 4);
}

#[test]
fn the_generator_agrees_with_the_reference_on_random_games() {
    let pics = pictures();
    for (name, picture) in &pics {
        for (suffix, players) in [("", 4), ("_3", 3), ("_2", 2), ("_2x2", 4)] {
            let id = format!("3d_{name}{suffix}");
            check(tables(&id).unwrap(), limits(picture, players), 2, 11);
        }
    }
}

#[test]
fn the_generator_agrees_with_the_reference_on_user_structures_and_the_skip_option() {
    let pic = |rows: &[&str]| rows.iter().map(|r| r.to_string()).collect::<Vec<_>>();
    for (rows, blocked, colors) in [
        (pic(&["3.21", "1442", ".21."]), "out", 3),
        (pic(&["3.21", "1442", ".21."]), "skip", 3),
        (pic(&["8888"; 4]), "skip", 4),
        (pic(&["3331", ".3.."]), "skip", 2),
        (pic(&["22222", "2...2", "22222"]), "skip", 2),
        // 216 cells (candidate lists of four words), and 288: more than 256 cells.
        (pic(&["666666"; 6]), "skip", 4),
        (pic(&["888888"; 6]), "out", 4),
    ] {
        let names = ["Blue", "Yellow", "Red", "Green"];
        let json = format!(
            r#"{{"id": "u", "board": {{"geometry": "cube", "structure": {}, "limits_for_players": 4}},
                "colors": {:?}, "players": {}, "pieces": {{}}, "blocked": "{blocked}"}}"#,
            serde_json::to_string(&rows).unwrap(),
            &names[..colors],
            serde_json::to_string(&(0..colors).map(|c| vec![c]).collect::<Vec<_>>()).unwrap(),
        );
        let t = Arc::new(Tables::new(Variant::from_json(&json).unwrap()));
        check(t, limits(&rows, 4), 6, 5);
    }
}

#[test]
fn perft_2_agrees_with_the_reference() {
    let pics = pictures();
    let b = Board::new(tables("3d_tower").unwrap());
    let r = Reference::new(limits(&pics["tower"], 4), 4, false);
    let mut total = 0;
    for first in r.legal(0) {
        let mut next = Reference::new(r.limits.clone(), 4, false);
        next.play(0, &first);
        // Colour 1 always has a move after the first piece on the tower.
        total += next.legal(1).len() as u64;
    }
    assert_eq!(b.perft(2), total);
}
