//! `hole_fill_candidates`: the verified fills of a hole, each paired with the quick fix
//! that writes it, so an agent can apply the candidate it chose by id.

mod common;

use common::*;
use rex_ide::apply_fix::quick_fix_by_id;
use rex_ide::fill_candidates::hole_fill_candidates;

#[test]
fn the_ph_candidates_carry_the_ids_of_the_fixes_that_write_them() {
    let f = fixture(PH_PROGRAM);
    let found = hole_fill_candidates(&f.db, f.file, f.offset);
    assert!(found.on_hole);
    assert_eq!(found.expected_type.as_deref(), Some("Result string string"));
    let best = &found.candidates[0];
    assert_eq!(best.replacement, "qc_label_from_sensor sensor_reading");
    for candidate in &found.candidates {
        let Some(id) = &candidate.quick_fix_id else {
            continue;
        };
        let fix = quick_fix_by_id(&f.db, f.file, f.offset, id, URI).expect("the id is offered");
        let edits = serde_json::to_value(&fix.quick_fix.edit).expect("edit");
        assert_eq!(
            edits["changes"][URI][0]["newText"], candidate.replacement,
            "{candidate:?}"
        );
    }
    assert!(
        found
            .candidates
            .iter()
            .filter(|c| c.quick_fix_id.is_some())
            .count()
            >= 3
    );
}

#[test]
fn off_a_hole_there_are_no_candidates() {
    let f = fixture("let x = 1 in <CURSOR>x + 1");
    let found = hole_fill_candidates(&f.db, f.file, f.offset);
    assert!(!found.on_hole && found.candidates.is_empty());
}
