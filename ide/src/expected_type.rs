//! `rex.expectedTypeAt`: the type the expression at a position is checked against.

use serde::Serialize;

use crate::context::{show, Context};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpectedType {
    pub expected_type: String,
}

/// None where nothing is expected of the expression (it is synthesised), or outside every
/// expression.
pub fn expected_type_at(ctx: &Context<'_>) -> Option<ExpectedType> {
    ctx.expected.as_ref().map(|t| ExpectedType {
        expected_type: show(t),
    })
}
