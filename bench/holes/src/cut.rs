//! The generator of the cut tasks: in each conformance program that runs to a known output
//! (`.expected` starting with `ok`), every subexpression of the kinds the benchmark asks
//! for is a candidate cut, found on the project's own syntax tree: a name, an application,
//! a parenthesised group (parentheses included), a lambda, a `match` arm's body. A cut is
//! kept when
//!
//! * it is not a bare literal, nor anything else that names no variable (a constructor
//!   without arguments, `User { name = "Ada", age = 36 }`, `(1 + 2)`: no context can tell
//!   `Red` from `Green`, or `"Ada"` from `"Bob"`, any more than `3` from `4`);
//! * the program with the hole has no error, and the hole is its only one;
//! * the hole's expected type is concrete (no type variable, rigid or not);
//! * the program with the hole prints something other than the expected output (the
//!   output depends on the fill);
//! * writing the cut text back over the hole prints the expected output again.
//!
//! Of the cuts a program offers, `per_program` are kept, chosen to spread the kinds: the
//! kind the task set has least of so far first, then the longest cut text.

use std::collections::BTreeMap;
use std::path::Path;

use rex_compiler::syntax::ast::{Arena, ExprId, ExprKind, Item};
use rex_compiler::syntax::lexer::{lex, Token};
use rex_compiler::syntax::parser::parse_text;
use rex_compiler::syntax::token::Tok;

use crate::judge::{hole_of, judge, output_with_hole, run_program};
use crate::task::{write_task, Kind, Task, TaskMeta};

/// Cuts kept per program in the committed task set.
pub const PER_PROGRAM: usize = 1;

/// One eligible cut.
#[derive(Clone, Debug)]
pub struct Cut {
    pub source: String,
    pub kind: Kind,
    /// The program with `?` in place of the cut text.
    pub program: String,
    pub meta: TaskMeta,
}

/// Counts of what the generator saw, for its report.
#[derive(Clone, Debug, Default)]
pub struct Census {
    pub programs: usize,
    pub programs_ok: usize,
    pub candidates: usize,
    pub rejected: BTreeMap<&'static str, usize>,
    pub eligible: BTreeMap<Kind, usize>,
}

/// The candidate subexpressions of one parsed item: `(kind, absolute byte range)`.
fn candidates(item: &Item, text: &str, tokens: &[Token<'_>]) -> Vec<(Kind, (usize, usize))> {
    let arena = &item.arena;
    let mut arm_bodies = vec![false; arena.exprs.len()];
    for e in &arena.exprs {
        if let ExprKind::Match { arms, .. } = &e.kind {
            for a in arms {
                arm_bodies[a.body.index()] = true;
            }
        }
    }
    let mut out = Vec::new();
    for (i, e) in arena.exprs.iter().enumerate() {
        if literal_like(arena, ExprId(i as u32)) || !names_a_variable(arena, ExprId(i as u32)) {
            continue;
        }
        let span = item.abs(e.span);
        let inner = (span.start as usize, span.end as usize);
        if inner.0 >= inner.1 || text.get(inner.0..inner.1).is_none() {
            continue;
        }
        let group = parenthesised(tokens, inner);
        let range = group.unwrap_or(inner);
        let kind = if arm_bodies[i] {
            Kind::ArmBody
        } else if group.is_some() {
            Kind::Group
        } else {
            match e.kind {
                ExprKind::Var(_) => Kind::Name,
                ExprKind::App(..) => Kind::Application,
                ExprKind::Lambda { .. } => Kind::Lambda,
                _ => continue,
            }
        };
        out.push((kind, range));
    }
    out
}

/// A literal, a negated literal, or a constructor without arguments.
fn literal_like(arena: &Arena, e: ExprId) -> bool {
    match &arena.expr(e).kind {
        ExprKind::Lit(_) | ExprKind::Ctor(_) => true,
        ExprKind::Negate(inner) => matches!(arena.expr(*inner).kind, ExprKind::Lit(_)),
        ExprKind::Hole(_) | ExprKind::Error { .. } | ExprKind::OpRef(_) => true,
        _ => false,
    }
}

/// Whether `e` mentions a variable anywhere inside it.
fn names_a_variable(arena: &Arena, e: ExprId) -> bool {
    if matches!(arena.expr(e).kind, ExprKind::Var(_)) {
        return true;
    }
    let mut found = false;
    arena
        .expr(e)
        .kind
        .for_each_child(|c| found |= names_a_variable(arena, c));
    found
}

/// The range of `(` `inner` `)` when the tokens right around `inner` are a matching pair
/// of parentheses (the parser's spans leave a group's parentheses out).
fn parenthesised(tokens: &[Token<'_>], inner: (usize, usize)) -> Option<(usize, usize)> {
    let first = tokens
        .iter()
        .position(|t| t.span.start as usize == inner.0)?;
    let last = tokens.iter().position(|t| t.span.end as usize == inner.1)?;
    if first == 0 || last + 1 >= tokens.len() || last < first {
        return None;
    }
    let (open, close) = (&tokens[first - 1], &tokens[last + 1]);
    if !matches!(open.tok, Tok::LParen) || !matches!(close.tok, Tok::RParen) {
        return None;
    }
    let mut depth = 0i32;
    for t in &tokens[first..=last] {
        match t.tok {
            Tok::LParen => depth += 1,
            Tok::RParen => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    (depth == 0).then_some((open.span.start as usize, close.span.end as usize))
}

/// The expected output of a conformance program (`None` unless its `.expected` says `ok`).
pub fn expected_output(expected_file: &str) -> Option<String> {
    let (first, rest) = expected_file
        .split_once('\n')
        .unwrap_or((expected_file, ""));
    if first.trim() != "ok" {
        return None;
    }
    let rest = rest.strip_suffix('\n').unwrap_or(rest);
    Some(rest.strip_suffix('\r').unwrap_or(rest).to_string())
}

/// Every eligible cut of one program.
pub fn cuts_of(source: &str, text: &str, expected: &str, census: &mut Census) -> Vec<Cut> {
    let parsed = parse_text(text);
    let (tokens, _) = lex(text);
    let mut out = Vec::new();
    let reject = |census: &mut Census, why: &'static str| {
        *census.rejected.entry(why).or_default() += 1;
    };
    for item in &parsed.items {
        for (kind, (s, t)) in candidates(item, text, &tokens) {
            census.candidates += 1;
            let program = format!("{}?{}", &text[..s], &text[t..]);
            let hole = match hole_of(&program) {
                Ok(h) => h,
                Err(_) => {
                    reject(census, "errors or extra holes with the hole");
                    continue;
                }
            };
            if !hole.concrete {
                reject(census, "the hole's type is not concrete");
                continue;
            }
            let task = Task::single(
                "cut",
                program.clone(),
                TaskMeta {
                    kind,
                    source: Some(source.to_string()),
                    reference: text[s..t].to_string(),
                    expected_type: hole.expected_type.clone(),
                    expected: expected.to_string(),
                },
            );
            if output_with_hole(&task, &hole).as_deref() == Ok(expected) {
                reject(census, "the output does not depend on the hole");
                continue;
            }
            if !judge(&task, &hole, &task.meta.reference).passed {
                reject(census, "the cut text written back does not pass");
                continue;
            }
            *census.eligible.entry(kind).or_default() += 1;
            out.push(Cut {
                source: source.to_string(),
                kind,
                program,
                meta: task.meta,
            });
        }
    }
    out
}

/// Cuts from every conformance program in `dir` that runs to its expected output, at most
/// `per_program` from each.
pub fn generate(dir: &Path, per_program: usize) -> Result<(Vec<Cut>, Census), String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rex"))
        .collect();
    files.sort();
    let mut census = Census::default();
    let mut chosen: Vec<Cut> = Vec::new();
    let mut per_kind: BTreeMap<Kind, usize> = BTreeMap::new();
    for name in files {
        census.programs += 1;
        let path = dir.join(&name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(expected_file) = std::fs::read_to_string(path.with_extension("expected")) else {
            continue;
        };
        let Some(expected) = expected_output(&expected_file) else {
            continue;
        };
        // The program itself must run to its output here, or no cut of it can pass.
        if run_program(&text) != (true, Ok(expected.clone())) {
            continue;
        }
        census.programs_ok += 1;
        let mut cuts = cuts_of(&name, &text, &expected, &mut census);
        for _ in 0..per_program {
            let Some(best) = (0..cuts.len()).min_by_key(|&i| {
                let c = &cuts[i];
                (
                    per_kind.get(&c.kind).copied().unwrap_or(0),
                    std::cmp::Reverse(c.meta.reference.len()),
                    i,
                )
            }) else {
                break;
            };
            let cut = cuts.remove(best);
            *per_kind.entry(cut.kind).or_default() += 1;
            chosen.push(cut);
        }
    }
    Ok((chosen, census))
}

/// Replaces the tasks in `out` (`*.rex`, `*.json`) with `cuts`, named after their source
/// program and kind.
pub fn write(out: &Path, cuts: &[Cut]) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot make `{}`: {e}", out.display()))?;
    for entry in std::fs::read_dir(out).map_err(|e| e.to_string())?.flatten() {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "rex" || e == "json") {
            std::fs::remove_file(&p)
                .map_err(|e| format!("cannot remove `{}`: {e}", p.display()))?;
        }
    }
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    for c in cuts {
        let stem = c.source.trim_end_matches(".rex");
        let base = format!("{stem}-{}", c.kind.name());
        let n = used.entry(base.clone()).or_default();
        *n += 1;
        let name = if *n == 1 { base } else { format!("{base}-{n}") };
        write_task(out, &name, &c.program, &c.meta)?;
    }
    Ok(())
}
