//! Applications (`f a b`, and binary operators `a + b`) in both modes.
//!
//! With a known type, the expected type flows into the function's result before the
//! arguments are checked, so a wrong argument is marked itself rather than the whole call,
//! and an overloaded function's constraints see the type the context asks for (`x + 1`
//! against `i32` checks `x` against `i32`). Literal arguments are checked after the others:
//! a literal fixes no type that a variable could not, so in `"a" + n` with `n : i32` it is
//! the literal that disagrees, not `n`.

use super::errors::Diag;
use super::infer::Infer;
use crate::span::Span;
use crate::syntax::ast::{ExprId, ExprKind};
use crate::types::{Ty, TyVar};

/// One argument of an application spine.
struct Arg {
    /// The node that applies this argument (the operator node for both operands).
    node: ExprId,
    arg: ExprId,
    /// Where a "not a function" diagnostic points: the function applied here.
    fspan: Span,
}

impl Infer<'_> {
    /// The type of the application `e`, checked against `expected` when there is one (the
    /// caller still unifies the result with it, reporting a mismatch on `e`).
    pub(super) fn application(&mut self, e: ExprId, expected: Option<&Ty>) -> Ty {
        let (head_ty, args) = self.spine(e, expected);
        // The parameter types, as far as the function's type shows arrows.
        let mut params = Vec::with_capacity(args.len());
        let mut t = head_ty;
        for a in &args {
            match self.u.shallow(&t) {
                Ty::Fun(p, r) => {
                    params.push(*p);
                    t = *r;
                }
                Ty::Unknown => {
                    params.push(Ty::Unknown);
                    t = Ty::Unknown;
                }
                Ty::Var(_) => {
                    let (p, r) = (self.u.fresh(), self.u.fresh());
                    let _ = self.u.unify(&t, &Ty::fun(p.clone(), r.clone()));
                    params.push(p);
                    t = r;
                }
                other => {
                    let shown = self.show(&other);
                    self.diags.push(Diag::not_a_function(shown, a.fspan));
                    for rest in &args[params.len()..] {
                        self.infer(rest.arg);
                    }
                    return Ty::Unknown;
                }
            }
        }
        let result = t;
        if let Some(expected) = expected {
            let _ = self.u.try_unify(&result, expected);
        }
        let literal = |me: &Self, a: &Arg| matches!(me.arena.expr(a.arg).kind, ExprKind::Lit(_));
        for pass_literals in [false, true] {
            for (a, p) in args.iter().zip(&params) {
                if literal(self, a) == pass_literals {
                    self.check(a.arg, p);
                }
            }
        }
        // Partial applications inside the spine keep their own types.
        for (i, a) in args.iter().enumerate() {
            if a.node != e {
                let rest = params[i + 1..]
                    .iter()
                    .rev()
                    .fold(result.clone(), |acc, p| Ty::fun(p.clone(), acc));
                self.expr_types[a.node.index()] = rest;
            }
        }
        result
    }

    /// The function's type and the arguments, first argument first. A constructor at the
    /// head is chosen by the type `expected` of the whole application.
    fn spine(&mut self, e: ExprId, expected: Option<&Ty>) -> (Ty, Vec<Arg>) {
        let arena = self.arena;
        if let ExprKind::Binary { op, lhs, rhs } = &arena.expr(e).kind {
            let tf = if op.text == "::" {
                // `x :: xs` is `Cons x xs`, the `Cons` chosen as that name would be.
                self.ctor_value(e, "Cons", op.span, expected)
            } else {
                self.var(&op.text, op.span)
            };
            let operand = |arg: ExprId| Arg {
                node: e,
                arg,
                fspan: op.span,
            };
            return (tf, vec![operand(*lhs), operand(*rhs)]);
        }
        let mut args = Vec::new();
        let mut node = e;
        while let ExprKind::App(f, a) = &arena.expr(node).kind {
            args.push(Arg {
                node,
                arg: *a,
                fspan: arena.expr(*f).span,
            });
            node = *f;
        }
        args.reverse();
        let head = match &arena.expr(node).kind {
            ExprKind::Ctor(name) => {
                let span = arena.expr(node).span;
                let t = self.ctor_value(node, name, span, expected);
                self.expr_types[node.index()] = t.clone();
                t
            }
            _ => self.infer(node),
        };
        (head, args)
    }

    /// After a mismatch: remembers the variables involved (constraints failing on them
    /// later are echoes), and gives the ones left open the unknown type, since nothing
    /// can fix them any more (no ambiguity error follows a mismatch).
    pub(super) fn note_conflict(&mut self, expected: &Ty, found: &Ty) {
        let mut vars: Vec<TyVar> = Vec::new();
        expected.free_vars(&mut vars);
        found.free_vars(&mut vars);
        for v in vars {
            let root = self.u.root(v);
            if !self.conflicted.contains(&root) {
                self.conflicted.push(root);
            }
        }
        self.u.forget_vars(expected);
        self.u.forget_vars(found);
    }
}
