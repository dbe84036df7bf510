//! Type reachability (Mündler et al., PLDI 2025): the ways a complete operand at the end of
//! a prefix can still change its type as the fill goes on. Application to more arguments
//! (a function type), a comparison (to `bool`), a cons (to a list), a projection of a
//! record field (to the field's type). Each continuation is written with holes, so one
//! re-check tells whether it can reach the expected type; `+`, `++` and the other
//! operators keep their operand's type and need no try.

use rex_compiler::check::Env;

/// Arguments tried for a function the prefix has not applied fully.
const MAX_EXTRA_ARGS: usize = 4;

/// Field names tried as projections.
const MAX_FIELDS: usize = 32;

/// Arguments an enclosing application may still take.
pub const ARGUMENT_PADDINGS: &[&str] = &[" ?", " ? ?", " ? ? ?"];

/// The continuations to try, in order.
pub fn continuations(fields: &[String]) -> Vec<String> {
    let mut out: Vec<String> = (1..=MAX_EXTRA_ARGS).map(|n| " ?".repeat(n)).collect();
    out.push(" == ?".to_string());
    out.push(" :: ?".to_string());
    // Inside a `match`, a missing arm (a non-exhaustive match is an error).
    out.push(" when _ -> ?".to_string());
    out.extend(fields.iter().map(|f| format!(".{f}")));
    // A projection may be followed by an application or a comparison.
    out.extend(fields.iter().map(|f| format!(".{f} ?")));
    out.extend(fields.iter().map(|f| format!(".{f} == ?")));
    out
}

/// The field names of the records the program's constructors carry.
pub fn field_names(env: &Env) -> Vec<String> {
    let mut out: Vec<String> = env
        .ctors
        .iter()
        .filter_map(|c| c.record.as_ref())
        .flatten()
        .map(|f| f.to_string())
        .collect();
    out.sort();
    out.dedup();
    out.truncate(MAX_FIELDS);
    out
}

/// Types a record may have: one constructor with a record payload (among `names`, those in
/// scope) for each type that has one.
pub fn record_constructors(env: &Env, names: &[String]) -> Vec<String> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for c in env.ctors.iter().filter(|c| c.record.is_some()) {
        let name = c.name.to_string();
        if !seen.contains(&c.adt) && names.binary_search(&name).is_ok() {
            seen.push(c.adt);
            out.push(name);
        }
    }
    out
}
