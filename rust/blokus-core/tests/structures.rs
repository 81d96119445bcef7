//! The built-in Blokus 3D structures are the ones docs/RULES.md draws.

use std::collections::HashMap;
use std::path::PathBuf;

use blokus_core::Variant;

/// The structures as docs/RULES.md draws them: name -> lines, back row first.
fn pictures() -> HashMap<String, Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/RULES.md");
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

#[test]
fn the_built_in_structures_are_drawn_as_in_the_rules() {
    let pics = pictures();
    assert_eq!(pics.len(), 4);
    for (name, picture) in &pics {
        for suffix in ["", "_3", "_2", "_2x2"] {
            let v = Variant::builtin(&format!("3d_{name}{suffix}")).unwrap();
            assert_eq!(&v.structure().unwrap().rows, picture, "{name}{suffix}");
        }
    }
}
