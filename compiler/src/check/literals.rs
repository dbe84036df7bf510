//! Integer literals that do not fit the type they were given (E0108), found once an item's
//! types are solved: `300 is u8`, or `99999999999` where `i32` was defaulted.

use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::syntax::ast::{Arena, ExprKind, Literal};
use crate::types::Ty;

/// The range of each integer type.
const RANGES: &[(&str, i128, i128)] = &[
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
    ("u8", 0, u8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("u64", 0, u64::MAX as i128),
];

/// A diagnostic for every integer literal of `arena` whose solved type (`expr_types`, by
/// expression) is an integer type it does not fit.
pub fn out_of_range(arena: &Arena, expr_types: &[Ty]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (e, expr) in arena.exprs.iter().enumerate() {
        let ExprKind::Lit(Literal::Int(text)) = &expr.kind else {
            continue;
        };
        let Some(Ty::Con(name)) = expr_types.get(e) else {
            continue;
        };
        let Some(&(ty, min, max)) = RANGES.iter().find(|(n, _, _)| **n == **name) else {
            continue;
        };
        // Too many digits for i128 is out of every range.
        let fits = value(text).is_some_and(|v| min <= v && v <= max);
        if !fits {
            out.push(
                Diagnostic::error(
                    Code::LiteralOutOfRange,
                    expr.span,
                    format!("`{text}` does not fit in `{ty}`, whose values go from {min} to {max}"),
                )
                .with_data(DiagnosticData::LiteralOutOfRange {
                    ty: ty.to_string(),
                    min: min.to_string(),
                    max: max.to_string(),
                }),
            );
        }
    }
    out
}

/// The value of an integer literal's text (digits, maybe a leading `-`, maybe `_`s).
fn value(text: &str) -> Option<i128> {
    text.replace('_', "").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::value;

    #[test]
    fn literal_values() {
        assert_eq!(value("300"), Some(300));
        assert_eq!(value("-128"), Some(-128));
        assert_eq!(value("1_000"), Some(1000));
        assert_eq!(value("99999999999999999999999999999999999999999"), None);
    }
}
