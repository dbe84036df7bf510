//! Everything the position assists share, computed once per request: the document, what is
//! under the position, the types there, the locals in scope and the offerable globals.

use rex_compiler::check::Env;
use rex_compiler::db::{program_env, Database, SourceFile};
use rex_compiler::syntax::ast::{ExprKind, ItemKind};
use rex_compiler::types::Ty;

use crate::catalog::{globals, Global};
use crate::locate::{Document, Located};
use crate::scope::{locals_at, ScopeValue};

pub struct Context<'db> {
    pub doc: Document<'db>,
    pub offset: usize,
    pub at: Option<Located<'db>>,
    pub env: &'db Env,
    pub locals: Vec<ScopeValue>,
    pub globals: Vec<Global>,
    /// The type the expression at the position is checked against.
    pub expected: Option<Ty>,
    /// The type the expression at the position has (None at a hole: a hole has no type of
    /// its own, it takes the expected one).
    pub inferred: Option<Ty>,
}

impl<'db> Context<'db> {
    /// The context at byte `offset` of `file` (front doors convert editor positions with
    /// `Document::offset` or `LineIndex::offset` first).
    pub fn new(db: &'db Database, file: SourceFile, offset: usize) -> Context<'db> {
        let doc = Document::new(db, file);
        let at = Located::at(&doc, offset);
        let env = program_env(db, db.prelude(), file);
        let locals = at
            .as_ref()
            .map(|at| locals_at(&doc, at))
            .unwrap_or_default();
        let (mut expected, mut inferred) = (None, None);
        if let Some((at, e)) = at.as_ref().and_then(|at| Some((at, at.expr?))) {
            expected = at.types.expected.get(e.index()).cloned().flatten();
            let is_hole = matches!(
                at.item.arena.expr(e).kind,
                ExprKind::Hole(_) | ExprKind::Error { .. }
            );
            if is_hole {
                // A hole met in synthesis mode learns its type from its uses; the hole
                // table has it.
                let span = at.item.arena.expr(e).span;
                if let Some(h) = at.types.holes.iter().find(|h| h.span == span) {
                    expected = Some(h.expected.clone());
                }
            } else {
                inferred = at.types.expr_types.get(e.index()).cloned();
            }
        }
        let near = at.as_ref().map(|a| a.index as u32);
        Context {
            doc,
            offset,
            at,
            env,
            locals,
            globals: globals(env, near),
            expected,
            inferred,
        }
    }

    /// The name of the top-level `fn` the position is in: its own body naming it is a
    /// call that never returns when nothing else happens first (`fn f = f`).
    pub fn enclosing_fn(&self) -> Option<&str> {
        match &self.at.as_ref()?.item.kind {
            ItemKind::Fn(decl) => Some(decl.name.text.as_str()),
            _ => None,
        }
    }
}

/// A type printed in the reference notation.
pub fn show(t: &Ty) -> String {
    t.to_string()
}
