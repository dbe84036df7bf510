//! Signature help: inside (or just after) an application `f a b`, the type of `f` with its
//! parameters marked and the one being written highlighted.

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::resolve::Target;
use rex_compiler::syntax::ast::{ExprId, ExprKind, Item};
use rex_compiler::types::{Pred, Scheme, Ty, TypePrinter};
use rex_compiler::Span;

use crate::editor::symbol::local_ty;
use crate::locate::{self, item_at_or_before, ItemAt};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    /// `name : P1 -> P2 -> R`, with the constraints first when there are any.
    pub label: String,
    /// Byte ranges of each parameter type inside `label`.
    pub parameters: Vec<(usize, usize)>,
    /// The parameter the cursor is at (may equal `parameters.len()` past the last one).
    pub active_parameter: usize,
    /// The function being applied (absolute).
    pub callee: Span,
}

pub fn signature_help(db: &Database, file: SourceFile, offset: usize) -> Option<SignatureHelp> {
    let at = item_at_or_before(db, file, offset)?;
    let text = file.text(db);
    let (head, args) = enclosing_call(&at, text)?;
    let arena = &at.item.arena;
    let name = match &arena.expr(head).kind {
        ExprKind::Var(n) | ExprKind::Ctor(n) => n.clone(),
        _ => return None,
    };
    let (ty, preds) = callee_type(db, file, &at, head, &name)?;
    let active_parameter = args
        .iter()
        .position(|a| at.rel <= arena.expr(*a).span.end as usize)
        .unwrap_or(args.len());
    let mut sig = render(&name, &ty, &preds);
    if sig.parameters.is_empty() {
        return None;
    }
    sig.active_parameter = active_parameter;
    sig.callee = at.abs(arena.expr(head).span);
    Some(sig)
}

/// The innermost call around the cursor: its head and arguments. A call counts when the
/// cursor is inside it or separated from its end by blanks only (`f x |` writes the next
/// argument); a lone name followed by blanks counts as a call with no arguments yet.
fn enclosing_call(at: &ItemAt<'_>, text: &str) -> Option<(ExprId, Vec<ExprId>)> {
    let item = at.item;
    let arena = &item.arena;
    let rel = at.rel;
    let reaches = |span: Span| {
        if (span.start as usize) >= rel {
            return false;
        }
        if rel <= span.end as usize {
            return true;
        }
        let from = item.offset as usize + span.end as usize;
        let to = item.offset as usize + rel;
        text.get(from..to)
            .is_some_and(|gap| gap.chars().all(char::is_whitespace))
    };
    let mut applied = vec![false; arena.exprs.len()];
    for e in &arena.exprs {
        if let ExprKind::App(f, _) = e.kind {
            if let Some(slot) = applied.get_mut(f.index()) {
                *slot = true;
            }
        }
    }
    let mut best: Option<(Span, ExprId, Vec<ExprId>)> = None;
    for (i, e) in arena.exprs.iter().enumerate() {
        let id = ExprId(i as u32);
        let call = match &e.kind {
            ExprKind::App(..) => spine(item, id),
            ExprKind::Var(_) | ExprKind::Ctor(_) if (e.span.end as usize) < rel => (id, vec![]),
            _ => continue,
        };
        if !reaches(e.span) || applied[i] {
            continue;
        }
        if best.as_ref().is_none_or(|(s, _, _)| e.span.len() < s.len()) {
            best = Some((e.span, call.0, call.1));
        }
    }
    best.map(|(_, head, args)| (head, args))
}

/// The head and arguments of the application spine rooted at `e`.
fn spine(item: &Item, e: ExprId) -> (ExprId, Vec<ExprId>) {
    let mut args = Vec::new();
    let mut cur = e;
    while let ExprKind::App(f, a) = &item.arena.expr(cur).kind {
        args.push(*a);
        cur = *f;
    }
    args.reverse();
    (cur, args)
}

/// The callee's declared type: a local's type, or a top-level scheme.
fn callee_type(
    db: &Database,
    file: SourceFile,
    at: &ItemAt<'_>,
    head: ExprId,
    name: &str,
) -> Option<(Ty, Vec<Pred>)> {
    let names = at.names(db);
    let head_span = at.item.arena.expr(head).span;
    let target = names
        .uses
        .iter()
        .find(|u| u.span == head_span)
        .map(|u| u.target.clone());
    if let Some(Target::Local(def)) = target {
        let t = local_ty(db, at, &names.locals[def])?;
        return Some((t, Vec::new()));
    }
    let env = locate::env(db, file);
    let is_ctor = matches!(at.item.arena.expr(head).kind, ExprKind::Ctor(_));
    let scheme: &Scheme = if is_ctor {
        // The constructor the checker chose here (the one evaluation builds).
        let id = at.types(db).ctors.expr(head)?;
        &env.ctor(id).scheme
    } else {
        env.values
            .get(name)
            .map(|v| &v.scheme)
            .or_else(|| env.methods.get(name).map(|m| &m.scheme))?
    };
    Some((scheme.ty.clone(), scheme.preds.clone()))
}

fn render(name: &str, ty: &Ty, preds: &[Pred]) -> SignatureHelp {
    let mut printer = TypePrinter::new();
    let mut params = Vec::new();
    let mut t = ty;
    while let Ty::Fun(a, r) = t {
        let shown = printer.ty(a);
        params.push(if matches!(**a, Ty::Fun(..)) {
            format!("({shown})")
        } else {
            shown
        });
        t = r;
    }
    let result = printer.ty(t);
    let preds: Vec<String> = preds.iter().map(|p| printer.pred(p)).collect();
    let mut label = format!("{name} : ");
    if !preds.is_empty() {
        label.push_str(&preds.join(", "));
        label.push_str(" => ");
    }
    let mut parameters = Vec::new();
    for p in &params {
        parameters.push((label.len(), label.len() + p.len()));
        label.push_str(p);
        label.push_str(" -> ");
    }
    label.push_str(&result);
    SignatureHelp {
        label,
        parameters,
        active_parameter: 0,
        callee: Span::default(),
    }
}
