//! Hover: what is under the cursor and its type. A name shows its declared or inferred
//! type, a hole its expected type and the values in scope there, any other expression its
//! inferred type and, where the context wants another, the expected one.

use rex_compiler::db::{file_holes, Database, SourceFile};
use rex_compiler::resolve::GlobalKind;
use rex_compiler::syntax::ast::{ExprKind, ItemKind};
use rex_compiler::types::{Ty, TypePrinter};
use rex_compiler::Span;

use crate::editor::symbol::{global_type, local_type, symbol_at, Symbol};
use crate::limits::MAX_HOVER_CONTEXT;
use crate::locate::{self, item_at, ItemAt};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// The hovered text (absolute).
    pub span: Span,
    /// A line of Rex: `name : type`, or a type.
    pub code: String,
    /// The type the context expects here: always at holes, elsewhere when it differs from
    /// the inferred type.
    pub expected_type: Option<String>,
    /// Further lines: a use's instantiated type, a hole's context.
    pub notes: Vec<String>,
}

impl Hover {
    /// The hover as Markdown, the way editors show it.
    pub fn markdown(&self) -> String {
        let mut out = format!("```rex\n{}\n```", self.code);
        if let Some(t) = &self.expected_type {
            out.push_str(&format!("\n\nexpected type: `{t}`"));
        }
        for n in &self.notes {
            out.push_str("\n\n");
            out.push_str(n);
        }
        out
    }
}

pub fn hover(db: &Database, file: SourceFile, offset: usize) -> Option<Hover> {
    let at = item_at(db, file, offset)?;
    let types = at.types(db);
    let expr = at.smallest_expr();
    let expr_kind = expr.map(|e| &at.item.arena.expr(e).kind);
    if let (Some(e), Some(ExprKind::Hole(name))) = (expr, expr_kind) {
        return Some(hole_hover(db, file, &at, e, name.as_deref()));
    }
    let printed = |t: &Ty| TypePrinter::new().ty(t);
    let expected_differing = |inferred: &str| {
        let e = expr?;
        let exp = types.expected.get(e.index())?.as_ref()?;
        let exp = printed(exp);
        (exp != inferred && !exp.contains('?')).then_some(exp)
    };
    if let Some((symbol, span)) = symbol_at(db, &at) {
        let mut notes = Vec::new();
        let code = match &symbol {
            Symbol::Local { def, .. } => {
                let def = &at.names(db).locals[*def];
                // At a use, the type there (a polymorphic binding is instantiated).
                let at_use = expr
                    .filter(|e| at.abs(at.item.arena.expr(*e).span) == span)
                    .filter(|_| at.abs(def.span) != span)
                    .and_then(|e| types.expr_types.get(e.index()))
                    .filter(|t| **t != Ty::Unknown)
                    .map(printed);
                let t = at_use
                    .or_else(|| local_type(db, &at, def))
                    .unwrap_or_else(|| "?".into());
                format!("{} : {t}", def.name)
            }
            Symbol::Global { name, kind } => {
                let env = locate::env(db, file);
                match (kind, global_type(env, name, *kind)) {
                    (GlobalKind::Type, _) => format!("type {name}"),
                    (GlobalKind::Class, _) => format!("class {name}"),
                    (_, Some(sc)) => {
                        let here = expr
                            .filter(|e| at.abs(at.item.arena.expr(*e).span) == span)
                            .and_then(|e| types.expr_types.get(e.index()))
                            .filter(|t| **t != Ty::Unknown)
                            .map(printed);
                        if let Some(here) = here.filter(|h| *h != sc) {
                            notes.push(format!("here: `{here}`"));
                        }
                        format!("{name} : {sc}")
                    }
                    (_, None) => return None,
                }
            }
        };
        let use_expr_matches = expr.is_some_and(|e| at.abs(at.item.arena.expr(e).span) == span);
        let expected_type = if use_expr_matches {
            let inferred = expr
                .and_then(|e| types.expr_types.get(e.index()))
                .map(printed)
                .unwrap_or_default();
            expected_differing(&inferred)
        } else {
            None
        };
        return Some(Hover {
            span,
            code,
            expected_type,
            notes,
        });
    }
    let e = expr?;
    if matches!(at.item.kind, ItemKind::Type(_) | ItemKind::Class(_)) {
        return None;
    }
    let t = types.expr_types.get(e.index())?;
    let code = printed(t);
    let expected_type = expected_differing(&code);
    Some(Hover {
        span: at.abs(at.item.arena.expr(e).span),
        code,
        expected_type,
        notes: Vec::new(),
    })
}

fn hole_hover(
    db: &Database,
    file: SourceFile,
    at: &ItemAt<'_>,
    e: rex_compiler::syntax::ast::ExprId,
    name: Option<&str>,
) -> Hover {
    let span = at.abs(at.item.arena.expr(e).span);
    let label = match name {
        Some(n) => format!("?{n}"),
        None => "?".to_string(),
    };
    let hole = file_holes(db, db.prelude(), file)
        .iter()
        .find(|h| h.span == span);
    let expected = hole.map(|h| h.expected_type.clone()).or_else(|| {
        let t = at.types(db).expected.get(e.index())?.as_ref()?;
        Some(TypePrinter::new().ty(t))
    });
    let mut notes = Vec::new();
    if let Some(h) = hole {
        let shown: Vec<String> = h
            .context
            .iter()
            .take(MAX_HOVER_CONTEXT)
            .map(|(n, t)| format!("`{n} : {t}`"))
            .collect();
        if !shown.is_empty() {
            notes.push(format!("in scope: {}", shown.join(", ")));
        }
    }
    Hover {
        span,
        code: format!("{label} : {}", expected.as_deref().unwrap_or("?")),
        expected_type: expected,
        notes,
    }
}
