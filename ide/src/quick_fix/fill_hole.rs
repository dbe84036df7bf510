//! Filling the hole under the position with one of its best verified candidates.

use super::{Fix, FixKind};
use crate::fill::Fill;
use crate::limits::MAX_FILL_FIXES_PER_HOLE;

pub fn fixes(fills: &[Fill], out: &mut Vec<Fix>) {
    for f in fills.iter().take(MAX_FILL_FIXES_PER_HOLE) {
        out.push(Fix::new(
            FixKind::FillHole,
            format!("Fill hole with `{}`", f.candidate.replacement),
            vec![f.edit.clone()],
        ));
    }
}
