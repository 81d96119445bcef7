use blokus_core::rng::Rng;
use blokus_core::{tables, Position};
fn main() {
    for id in ["duo", "classic", "trigon"] {
        let t = tables(id).unwrap();
        let mut rng = Rng::new(1);
        let (mut plies, mut attach, mut hits, mut moves) = (0u64, 0u64, 0u64, 0u64);
        for _ in 0..200 {
            let mut pos = Position::start(&t);
            let mut scratch = Vec::new();
            while !pos.is_game_over() {
                let c = pos.to_move as usize;
                let cand = pos.attach[c] & !pos.forbidden[c];
                attach += u64::from(cand.count());
                for a in cand.iter() {
                    let near = Bits::from_cells(
                        t.placements
                            .iter()
                            .filter(|p| p.mask.contains(a))
                            .flat_map(|p| p.cells().iter().map(|&x| x as usize)),
                    );
                    hits += u64::from((near & pos.forbidden[c]).count());
                }
                moves += pos.count_moves(&t) as u64;
                plies += 1;
                let m = pos.sample_move(&t, &mut rng, &mut scratch).unwrap();
                pos.play(&t, m);
            }
        }
        println!(
            "{id}: plies/game {:.1}, attach/ply {:.1}, blocked near/attach {:.1}, moves/ply {:.1}",
            plies as f64 / 200.0,
            attach as f64 / plies as f64,
            hits as f64 / attach as f64,
            moves as f64 / plies as f64
        );
    }
}
use blokus_core::bits::Bits;
