//! The built-in variants: specs like any user's, in `variants/*.json`, validated the same way.

const BUILTIN_SPECS: &[(&str, &str)] = &[
    ("classic", include_str!("../../variants/classic.json")),
    ("classic_2", include_str!("../../variants/classic_2.json")),
    ("classic_3", include_str!("../../variants/classic_3.json")),
    ("duo", include_str!("../../variants/duo.json")),
    ("junior", include_str!("../../variants/junior.json")),
    ("trigon", include_str!("../../variants/trigon.json")),
    ("trigon_2", include_str!("../../variants/trigon_2.json")),
    ("trigon_3", include_str!("../../variants/trigon_3.json")),
    ("3d_tower", include_str!("../../variants/3d_tower.json")),
    ("3d_tower_3", include_str!("../../variants/3d_tower_3.json")),
    ("3d_tower_2", include_str!("../../variants/3d_tower_2.json")),
    (
        "3d_tower_2x2",
        include_str!("../../variants/3d_tower_2x2.json"),
    ),
    ("3d_wall", include_str!("../../variants/3d_wall.json")),
    ("3d_wall_3", include_str!("../../variants/3d_wall_3.json")),
    ("3d_wall_2", include_str!("../../variants/3d_wall_2.json")),
    (
        "3d_wall_2x2",
        include_str!("../../variants/3d_wall_2x2.json"),
    ),
    ("3d_steps", include_str!("../../variants/3d_steps.json")),
    ("3d_steps_3", include_str!("../../variants/3d_steps_3.json")),
    ("3d_steps_2", include_str!("../../variants/3d_steps_2.json")),
    (
        "3d_steps_2x2",
        include_str!("../../variants/3d_steps_2x2.json"),
    ),
    ("3d_pyramid", include_str!("../../variants/3d_pyramid.json")),
    (
        "3d_pyramid_3",
        include_str!("../../variants/3d_pyramid_3.json"),
    ),
    (
        "3d_pyramid_2",
        include_str!("../../variants/3d_pyramid_2.json"),
    ),
    (
        "3d_pyramid_2x2",
        include_str!("../../variants/3d_pyramid_2x2.json"),
    ),
];

/// The ids of the built-in variants, in a fixed order.
pub fn builtin_ids() -> Vec<&'static str> {
    BUILTIN_SPECS.iter().map(|(id, _)| *id).collect()
}

/// The JSON spec of a built-in variant.
pub fn builtin_spec_json(id: &str) -> Option<&'static str> {
    BUILTIN_SPECS
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, s)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn every_builtin_spec_validates_under_its_own_id() {
        for id in builtin_ids() {
            let v = Variant::builtin(id).unwrap_or_else(|| panic!("{id} does not validate"));
            assert_eq!(v.id(), id);
        }
    }
}
