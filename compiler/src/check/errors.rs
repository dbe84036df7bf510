//! Constructors of name, type and module diagnostics, with their structured data.

use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;

/// A checker diagnostic. Spans are relative to the item being checked until collected.
pub type TypeDiag = Diagnostic;

pub struct Diag;

impl Diag {
    pub fn unknown_name(name: &str, candidates: Vec<String>, span: Span) -> TypeDiag {
        let mut msg = format!("`{name}` is not defined");
        if let Some(best) = candidates.first() {
            msg.push_str(&format!("; did you mean `{best}`?"));
        }
        Diagnostic::error(Code::UnknownName, span, msg).with_data(DiagnosticData::UnknownName {
            name: name.to_string(),
            candidates,
        })
    }

    pub fn mismatch(expected: String, found: String, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::TypeMismatch,
            span,
            format!("expected `{expected}`, found `{found}`"),
        )
        .with_data(DiagnosticData::TypeMismatch { expected, found })
    }

    pub fn infinite(expected: String, found: String, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::InfiniteType,
            span,
            format!("`{found}` and `{expected}` would make an infinite type"),
        )
        .with_data(DiagnosticData::TypeMismatch { expected, found })
    }

    pub fn not_a_function(found: String, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::NotAFunction,
            span,
            format!("this has type `{found}`, which is not a function, but it is applied to an argument"),
        )
        .with_data(DiagnosticData::NotAFunction { found })
    }

    pub fn missing_instance(class: &str, types: Vec<String>, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::MissingInstance,
            span,
            format!("no instance `{class} {}`", types.join(" ")),
        )
        .with_data(DiagnosticData::MissingInstance {
            class: class.to_string(),
            types,
        })
    }

    /// Resolving `constraint` followed instance contexts past the limit: an instance's
    /// context loops back to what it should prove.
    pub fn recursion_limit(constraint: String, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::RecursionLimit,
            span,
            format!("resolving `{constraint}` does not end: an instance's context leads back to it (through ever larger types)"),
        )
    }

    pub fn ambiguous(constraint: String, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::AmbiguousType,
            span,
            format!("ambiguous type: nothing fixes the type in `{constraint}`; add an annotation (`e is T`)"),
        )
        .with_data(DiagnosticData::AmbiguousType { constraint })
    }

    /// A `let` binding whose type does not mention a variable its constraints keep open.
    pub fn ambiguous_binding(name: &str, constraints: Vec<String>, span: Span) -> TypeDiag {
        let listed = constraints
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(" with ");
        Diagnostic::error(
            Code::AmbiguousType,
            span,
            format!("ambiguous type: nothing fixes the type in {listed}, which the type of `{name}` does not mention; annotate the binding (`{name}: T`)"),
        )
        .with_data(DiagnosticData::AmbiguousType {
            constraint: constraints.join(", "),
        })
    }

    pub fn redundant_arm(span: Span) -> TypeDiag {
        let mut d = Diagnostic::error(
            Code::RedundantArm,
            span,
            "this arm is never reached: the arms before it match every value it matches",
        );
        d.severity = crate::diagnostic::Severity::Warning;
        d
    }

    pub fn non_exhaustive(missing: Vec<String>, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::NonExhaustiveMatch,
            span,
            format!(
                "this match does not cover {}",
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
        .with_data(DiagnosticData::NonExhaustiveMatch { missing })
    }

    pub fn field(field: &str, ty: String, why: &str, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::FieldNotAvailable,
            span,
            format!("field `{field}` is not definitely available on `{ty}`{why}"),
        )
        .with_data(DiagnosticData::FieldNotAvailable {
            field: field.to_string(),
            ty,
        })
    }

    pub fn ctor_arity(name: &str, expected: usize, found: usize, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::ConstructorArity,
            span,
            format!(
                "constructor `{name}` takes {expected} argument(s) but the pattern gives {found}"
            ),
        )
        .with_data(DiagnosticData::ConstructorArity {
            name: name.to_string(),
            expected,
            found,
        })
    }

    pub fn simple(code: Code, span: Span, msg: impl Into<String>) -> TypeDiag {
        Diagnostic::error(code, span, msg)
    }
}

impl Diag {
    /// `M.name` where the module imported as `M` exports no `name` (in the facet used).
    pub fn not_exported(alias: &str, name: &str, candidates: Vec<String>, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::MissingExport,
            span,
            format!(
                "`{name}` is not exported by the module imported as `{alias}` (only `pub` declarations are)"
            ),
        )
        .with_data(DiagnosticData::UnknownName {
            name: name.to_string(),
            candidates,
        })
    }

    pub fn unknown_type(name: &str, candidates: Vec<String>, span: Span) -> TypeDiag {
        Diagnostic::error(Code::UnknownType, span, format!("unknown type `{name}`")).with_data(
            DiagnosticData::UnknownName {
                name: name.to_string(),
                candidates,
            },
        )
    }
}

/// Shorthands used by type lowering.
pub trait LoweringDiags {
    fn unknown_module(alias: &str, span: Span) -> TypeDiag;
    fn unknown_type(name: &str, candidates: Vec<String>, span: Span) -> TypeDiag;
    fn unknown_class(name: &str, candidates: Vec<String>, span: Span) -> TypeDiag;
    fn type_arity(name: &str, arity: usize, found: usize, span: Span) -> TypeDiag;
    fn class_arity(name: &str, arity: usize, found: usize, span: Span) -> TypeDiag;
}

impl LoweringDiags for TypeDiag {
    fn unknown_module(alias: &str, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::UnknownModule,
            span,
            format!("`{alias}` is not an imported module"),
        )
        .with_data(DiagnosticData::Module {
            path: alias.to_string(),
        })
    }
    fn unknown_type(name: &str, candidates: Vec<String>, span: Span) -> TypeDiag {
        Diag::unknown_type(name, candidates, span)
    }
    fn unknown_class(name: &str, candidates: Vec<String>, span: Span) -> TypeDiag {
        Diagnostic::error(Code::UnknownClass, span, format!("unknown class `{name}`")).with_data(
            DiagnosticData::UnknownName {
                name: name.to_string(),
                candidates,
            },
        )
    }
    fn type_arity(name: &str, arity: usize, found: usize, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::KindArity,
            span,
            format!("type `{name}` takes {arity} argument(s), given {found}"),
        )
    }
    fn class_arity(name: &str, arity: usize, found: usize, span: Span) -> TypeDiag {
        Diagnostic::error(
            Code::KindArity,
            span,
            format!("class `{name}` takes {arity} type(s), given {found}"),
        )
    }
}

/// Names within a small edit distance of `name`, closest first: identifiers for an
/// identifier, operators for an operator (`x` is never "did you mean `+`"). Called for
/// every unknown name over every name in scope (thousands in a big file, and once per
/// token when the fill oracle checks a half-written name), so a candidate whose length
/// alone rules it out costs a count of its characters, and no candidate allocates.
pub fn near_misses<'a>(name: &str, pool: impl Iterator<Item = &'a str>) -> Vec<String> {
    let limit = if name.len() <= 3 { 1 } else { 2 };
    let wordy = |s: &str| {
        s.rsplit('.')
            .next()
            .and_then(|last| last.chars().next())
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    let word = wordy(name);
    let target: Vec<char> = name.chars().collect();
    let mut rows = (Vec::new(), Vec::new());
    let mut scored: Vec<(usize, String)> = Vec::new();
    for c in pool {
        if c == name || c.chars().count().abs_diff(target.len()) > limit || wordy(c) != word {
            continue;
        }
        if let Some(d) = distance_within(&target, c, limit, &mut rows) {
            scored.push((d, c.to_string()));
        }
    }
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().map(|(_, c)| c).take(5).collect()
}

/// The near misses of `name` among the names of `pool` spelled `alias.member`, as members
/// (what a module imported as `alias` exports like `name`).
pub fn near_members<'a>(
    alias: &str,
    name: &str,
    pool: impl Iterator<Item = &'a str>,
) -> Vec<String> {
    let members = pool.filter_map(|n| n.strip_prefix(alias)?.strip_prefix('.'));
    near_misses(name, members)
}

/// The edit distance from `a` to `b` when it is at most `limit`; `rows` is scratch space
/// kept between calls.
fn distance_within(
    a: &[char],
    b: &str,
    limit: usize,
    rows: &mut (Vec<usize>, Vec<usize>),
) -> Option<usize> {
    let (prev, cur) = rows;
    prev.clear();
    prev.extend(0..=a.len());
    for (i, cb) in b.chars().enumerate() {
        cur.clear();
        cur.push(i + 1);
        for (j, ca) in a.iter().enumerate() {
            let cost = usize::from(*ca != cb);
            let best = (prev[j + 1] + 1).min(cur[j] + 1).min(prev[j] + cost);
            cur.push(best);
        }
        // Every path to the end goes through this row: past the limit, it stays past.
        if cur.iter().min().is_some_and(|m| *m > limit) {
            return None;
        }
        std::mem::swap(prev, cur);
    }
    prev.last().copied().filter(|d| *d <= limit)
}

#[cfg(test)]
mod tests {
    use super::near_misses;

    #[test]
    fn near_misses_are_within_the_limit_closest_first() {
        let pool = ["label", "lable", "labels", "lbl", "table", "labelled", "x"];
        // Levenshtein distances: labels 1, lable 2, lbl 2, table 3, labelled 3.
        assert_eq!(
            near_misses("label", pool.iter().copied()),
            ["labels", "lable", "lbl"]
        );
        assert_eq!(
            near_misses("lbel", pool.iter().copied()),
            ["label", "lbl", "labels"]
        );
        assert!(near_misses("zzzzzz", pool.iter().copied()).is_empty());
    }

    #[test]
    fn identifiers_and_operators_are_not_offered_for_each_other() {
        let pool = ["+", "qq", "*", "M.q2", "x"];
        assert_eq!(near_misses("q", pool.iter().copied()), ["qq", "x"]);
        assert_eq!(near_misses("++", pool.iter().copied()), ["+"]);
        assert_eq!(near_misses("q2", pool.iter().copied()), ["qq"]);
    }
}
