//! Completion at a position, ranked by how well each candidate's type fits the type
//! expected there: values with the expected type first, then functions that produce it,
//! then the rest. Within a fit, names in scope come innermost first, then the file's
//! top-level declarations, then the prelude, then keywords. After `.`, the fields of the
//! record before it. Internal names (`prim_*`) are never offered.

mod fit;

pub use fit::TypeFit;

use rex_compiler::check::Env;
use rex_compiler::db::{Database, SourceFile};
use rex_compiler::syntax::ast::ExprKind;
use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::token::Tok;
use rex_compiler::types::{Pred, Ty, TypePrinter};
use rex_compiler::Span;

use crate::editor::symbol::local_ty;
use crate::fit::Fit;
use crate::limits::MAX_COMPLETIONS;
use crate::locate::{self, is_internal, item_at, item_at_or_before, ItemAt};
use fit::{target, type_fit};

const KEYWORDS: &[&str] = &[
    "let", "rec", "in", "if", "then", "else", "match", "when", "fn", "type", "class", "instance",
    "import", "pub", "where", "with", "is", "as",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CompletionKind {
    Local,
    Function,
    Method,
    Constructor,
    Field,
    Keyword,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    /// The candidate's printed type.
    pub detail: Option<String>,
    pub fit: TypeFit,
    /// Orders the items as ranked here (clients sort by it).
    pub sort_text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Completions {
    /// The text a chosen item replaces: the partial name before the cursor (absolute).
    pub span: Span,
    /// The type expected at the cursor, when known.
    pub expected_type: Option<String>,
    pub items: Vec<CompletionItem>,
    /// More items matched than `MAX_COMPLETIONS`.
    pub is_incomplete: bool,
}

/// Where a candidate comes from, closest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Origin {
    Local,
    File,
    Prelude,
    Keyword,
}

struct Candidate {
    label: String,
    kind: CompletionKind,
    ty: Option<Ty>,
    /// The class constraints of `ty`.
    preds: Vec<Pred>,
    detail: Option<String>,
    origin: Origin,
}

pub fn completion(db: &Database, file: SourceFile, offset: usize) -> Completions {
    let text = file.text(db);
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    if in_string_or_comment(text, offset) {
        return Completions::default();
    }
    let start = text[..offset]
        .bytes()
        .rposition(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .map_or(0, |i| i + 1);
    if start > 0 && text.as_bytes()[start - 1] == b'.' {
        return field_completions(db, file, Span::new(start, offset), &text[start..offset]);
    }
    // On a hole (`?`, `?name`, the cursor before or after it) an item replaces the hole.
    let hole_start = if start > 0 && text.as_bytes()[start - 1] == b'?' {
        Some(start - 1)
    } else if start == offset && text[offset..].starts_with('?') {
        Some(offset)
    } else {
        None
    };
    if let Some(h) = hole_start {
        let end = h
            + 1
            + text[h + 1..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
        return name_completions(db, file, Span::new(h, end), "");
    }
    name_completions(db, file, Span::new(start, offset), &text[start..offset])
}

fn in_string_or_comment(text: &str, offset: usize) -> bool {
    let (tokens, _) = lex(text);
    let mut gap_start = 0;
    for t in &tokens {
        let (s, e) = (t.span.start as usize, t.span.end as usize);
        if s >= offset {
            break;
        }
        if offset < e || (offset == e && is_open_string(t.tok, &text[s..e])) {
            return matches!(t.tok, Tok::Str(_));
        }
        gap_start = e;
    }
    let gap = text.get(gap_start..offset).unwrap_or("");
    match gap.rfind("{-") {
        Some(open) => !gap[open..].contains("-}"),
        None => false,
    }
}

/// A string token whose closing quote is missing (the cursor after it is still inside).
fn is_open_string(tok: Tok<'_>, lexeme: &str) -> bool {
    matches!(tok, Tok::Str(_)) && (lexeme.len() < 2 || !lexeme.ends_with('"'))
}

fn name_completions(db: &Database, file: SourceFile, span: Span, prefix: &str) -> Completions {
    let env = locate::env(db, file);
    let at = item_at_or_before(db, file, span.end as usize);
    let expected = at.as_ref().and_then(|at| expected_at(db, at, span));
    let mut fit = Fit::new();
    let target = target(&mut fit, expected.as_ref());
    let mut candidates = Vec::new();
    if let Some(at) = &at {
        let names = at.names(db);
        for i in names.scope_at(at.rel) {
            let def = &names.locals[i];
            let t = local_ty(db, at, def);
            candidates.push(Candidate {
                label: def.name.clone(),
                kind: CompletionKind::Local,
                detail: t.as_ref().map(|t| TypePrinter::new().ty(t)),
                ty: t.map(|t| fit.import(&t)),
                preds: Vec::new(),
                origin: Origin::Local,
            });
        }
    }
    global_candidates(env, &mut fit, &mut candidates);
    for kw in KEYWORDS {
        candidates.push(Candidate {
            label: kw.to_string(),
            kind: CompletionKind::Keyword,
            ty: None,
            preds: Vec::new(),
            detail: None,
            origin: Origin::Keyword,
        });
    }
    for b in ["true", "false"] {
        candidates.push(Candidate {
            label: b.to_string(),
            kind: CompletionKind::Keyword,
            ty: Some(Ty::con("bool")),
            preds: Vec::new(),
            detail: Some("bool".to_string()),
            origin: Origin::Keyword,
        });
    }
    let expected_type = expected
        .filter(|t| !matches!(t, Ty::Var(_) | Ty::Unknown))
        .map(|t| TypePrinter::new().ty(&t));
    rank(
        env,
        span,
        expected_type,
        prefix,
        candidates,
        (&mut fit, target.as_ref()),
    )
}

/// The type expected where the partial name (or hole, or gap) at `span` stands.
fn expected_at(db: &Database, at: &ItemAt<'_>, span: Span) -> Option<Ty> {
    let rel_start = (span.start as usize).checked_sub(at.item.offset as usize)?;
    let rel_end = (span.end as usize).checked_sub(at.item.offset as usize)?;
    let arena = &at.item.arena;
    let leaf = arena.exprs.iter().enumerate().find(|(_, e)| {
        let is_leaf = matches!(
            e.kind,
            ExprKind::Var(_) | ExprKind::Ctor(_) | ExprKind::Hole(_) | ExprKind::Error { .. }
        );
        is_leaf && e.span.start as usize <= rel_start && rel_end <= e.span.end as usize
    })?;
    at.types(db).expected.get(leaf.0)?.clone()
}

fn global_candidates(env: &Env, fit: &mut Fit, out: &mut Vec<Candidate>) {
    let origin = |prelude: bool| {
        if prelude {
            Origin::Prelude
        } else {
            Origin::File
        }
    };
    let visible = |name: &str| {
        !is_internal(name) && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    };
    for (name, v) in &env.values {
        if visible(name) {
            let (ty, preds) = fit.instantiate_with_preds(&v.scheme);
            out.push(Candidate {
                label: name.to_string(),
                kind: CompletionKind::Function,
                detail: Some(TypePrinter::new().scheme(&v.scheme)),
                ty: Some(ty),
                preds,
                origin: origin(v.origin.is_prelude()),
            });
        }
    }
    for (name, m) in &env.methods {
        if visible(name) && !env.values.contains_key(name) {
            let prelude = env
                .classes
                .get(&m.class)
                .is_none_or(|c| c.origin.is_prelude());
            let (ty, preds) = fit.instantiate_with_preds(&m.scheme);
            out.push(Candidate {
                label: name.to_string(),
                kind: CompletionKind::Method,
                detail: Some(TypePrinter::new().scheme(&m.scheme)),
                ty: Some(ty),
                preds,
                origin: origin(prelude),
            });
        }
    }
    // Constructors as the file's scope spells them (a module's only where imported).
    for (name, ids) in &env.ctor_index {
        for c in ids.iter().map(|id| env.ctor(*id)) {
            let (ty, preds) = fit.instantiate_with_preds(&c.scheme);
            out.push(Candidate {
                label: name.to_string(),
                kind: CompletionKind::Constructor,
                detail: Some(TypePrinter::new().scheme(&c.scheme)),
                ty: Some(ty),
                preds,
                origin: origin(c.origin.is_prelude()),
            });
        }
    }
}

/// After `M.` for a module alias `M`: what the module exports, by the name after `M.`.
fn module_members(env: &Env, alias: &str) -> Vec<Candidate> {
    let qualified = format!("{alias}.");
    let member = |name: &str| name.strip_prefix(qualified.as_str()).map(str::to_string);
    let mut out = Vec::new();
    for (name, v) in &env.values {
        if let Some(label) = member(name) {
            out.push(member_candidate(label, CompletionKind::Function, &v.scheme));
        }
    }
    for (name, m) in &env.methods {
        if let Some(label) = member(name) {
            out.push(member_candidate(label, CompletionKind::Method, &m.scheme));
        }
    }
    for (name, ids) in &env.ctor_index {
        if let Some(label) = member(name) {
            for id in ids {
                let c = env.ctor(*id);
                out.push(member_candidate(
                    label.clone(),
                    CompletionKind::Constructor,
                    &c.scheme,
                ));
            }
        }
    }
    out
}

fn member_candidate(
    label: String,
    kind: CompletionKind,
    scheme: &rex_compiler::types::Scheme,
) -> Candidate {
    Candidate {
        label,
        kind,
        detail: Some(TypePrinter::new().scheme(scheme)),
        ty: None,
        preds: Vec::new(),
        origin: Origin::File,
    }
}

/// Filters by prefix, drops shadowed duplicates, orders by fit then origin, and caps.
fn rank(
    env: &Env,
    span: Span,
    expected_type: Option<String>,
    prefix: &str,
    candidates: Vec<Candidate>,
    (fit, target): (&mut Fit, Option<&Ty>),
) -> Completions {
    let lower = prefix.to_ascii_lowercase();
    let mut seen = std::collections::HashSet::new();
    let mut ranked: Vec<(TypeFit, Origin, usize, Candidate)> = Vec::new();
    for (order, c) in candidates.into_iter().enumerate() {
        if !c.label.to_ascii_lowercase().starts_with(&lower) || !seen.insert(c.label.clone()) {
            continue;
        }
        let fit = match &c.ty {
            Some(t) => type_fit(fit, env, target, t, &c.preds),
            None => TypeFit::Unconstrained,
        };
        ranked.push((fit, c.origin, order, c));
    }
    // Keywords never outrank a name; among names the fit decides first.
    ranked
        .sort_by_key(|(fit, origin, order, _)| (*origin == Origin::Keyword, *fit, *origin, *order));
    let is_incomplete = ranked.len() > MAX_COMPLETIONS;
    ranked.truncate(MAX_COMPLETIONS);
    let items = ranked
        .into_iter()
        .enumerate()
        .map(|(i, (fit, _, _, c))| CompletionItem {
            label: c.label,
            kind: c.kind,
            detail: c.detail,
            fit,
            sort_text: format!("{i:04}"),
        })
        .collect();
    Completions {
        span,
        expected_type,
        items,
        is_incomplete,
    }
}

/// After `base.`: the fields of the base's record type (or a tuple's positions).
fn field_completions(db: &Database, file: SourceFile, span: Span, prefix: &str) -> Completions {
    let dot = span.start as usize - 1;
    let env = locate::env(db, file);
    let text = file.text(db);
    let alias_start = text[..dot]
        .bytes()
        .rposition(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .map_or(0, |i| i + 1);
    let alias = &text[alias_start..dot];
    let qualified_base = alias_start > 0 && text.as_bytes()[alias_start - 1] == b'.';
    if !qualified_base && env.module_aliases.contains_key(alias) {
        return rank(
            env,
            span,
            None,
            prefix,
            module_members(env, alias),
            (&mut Fit::new(), None),
        );
    }
    let Some(base_ty) = base_type(db, file, dot) else {
        return Completions {
            span,
            ..Completions::default()
        };
    };
    let candidates = record_fields(env, &base_ty)
        .into_iter()
        .map(|(name, t)| Candidate {
            label: name,
            kind: CompletionKind::Field,
            detail: Some(TypePrinter::new().ty(&t)),
            ty: None,
            preds: Vec::new(),
            origin: Origin::Local,
        })
        .collect();
    rank(env, span, None, prefix, candidates, (&mut Fit::new(), None))
}

/// The type of the expression that ends at the `.` at `dot`: a typed expression ending
/// there, or else (the parser gave the unfinished projection up) the chain of names
/// `a.b.c` before it, resolved through scope and record fields.
fn base_type(db: &Database, file: SourceFile, dot: usize) -> Option<Ty> {
    let at = item_at(db, file, dot)?;
    let rel_dot = dot.checked_sub(at.item.offset as usize)?;
    let types = at.types(db);
    let typed = at
        .item
        .arena
        .exprs
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e.span.end as usize == rel_dot && !matches!(e.kind, ExprKind::Error { .. })
        })
        .min_by_key(|(_, e)| e.span.len())
        .and_then(|(i, _)| types.expr_types.get(i))
        .filter(|t| **t != Ty::Unknown);
    if let Some(t) = typed {
        return Some(t.clone());
    }
    let text = file.text(db);
    let chain_start = text[..dot]
        .bytes()
        .rposition(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.'))
        .map_or(0, |i| i + 1);
    let chain: Vec<&str> = text[chain_start..dot].split('.').collect();
    let (first, rest) = chain.split_first()?;
    let names = at.names(db);
    let rel = chain_start.checked_sub(at.item.offset as usize)?;
    let mut t = names
        .scope_at(rel)
        .into_iter()
        .find(|i| names.locals[*i].name == *first)
        .and_then(|i| local_ty(db, &at, &names.locals[i]))
        .or_else(|| {
            let env = locate::env(db, file);
            env.values.get(*first).map(|v| v.scheme.ty.clone())
        })?;
    let env = locate::env(db, file);
    for field in rest {
        t = record_fields(env, &t)
            .into_iter()
            .find(|(n, _)| n == field)
            .map(|(_, t)| t)?;
    }
    Some(t)
}

/// The fields of a record type, of an ADT whose constructors carry records (instantiated
/// at the type's arguments), or the positions of a tuple.
pub fn record_fields(env: &Env, t: &Ty) -> Vec<(String, Ty)> {
    match t {
        Ty::Record(fs) => fs.iter().map(|(n, t)| (n.to_string(), t.clone())).collect(),
        Ty::Tuple(ts) => ts
            .iter()
            .enumerate()
            .map(|(i, t)| (i.to_string(), t.clone()))
            .collect(),
        _ => {
            let Some(adt) = env.adt_of_type(t) else {
                return Vec::new();
            };
            let args: Vec<Ty> = t.spine().1.into_iter().cloned().collect();
            let mut out: Vec<(String, Ty)> = Vec::new();
            for id in &adt.ctors {
                let ctor = env.ctor(*id);
                if ctor.record.is_none() {
                    continue;
                }
                if let Some(Ty::Record(fs)) = ctor.fields.first().map(|f| f.instantiate(&args)) {
                    for (n, ft) in fs {
                        if !out.iter().any(|(m, _)| **m == *n) {
                            out.push((n.to_string(), ft));
                        }
                    }
                }
            }
            out
        }
    }
}
