use blokus_core::tables;
fn main() {
    for id in ["duo", "classic", "junior", "trigon", "trigon_3"] {
        let t = tables(id).unwrap();
        let n = t.variant.num_cells();
        let mut maxthrough = 0;
        let mut maxwin = 0;
        let mut totwin = 0;
        for a in 0..n {
            let mut through = 0;
            let mut win = blokus_core::bits::Bits::EMPTY;
            for p in 0..t.variant.pieces.len() {
                for &id in t.covering(a, p) {
                    through += 1;
                    win |= t.placements[id as usize].mask;
                }
            }
            maxthrough = maxthrough.max(through);
            maxwin = maxwin.max(win.count());
            totwin += win.count();
        }
        println!(
            "{id}: max through {maxthrough}, max window {maxwin}, avg window {}",
            totwin as usize / n
        );
    }
}
