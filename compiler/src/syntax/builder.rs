//! What grammar actions call to allocate nodes; also resolves operator precedence.

use lalrpop_util::ErrorRecovery;

use super::ast::*;
use super::token::Tok;
use crate::diagnostic::{Code, Diagnostic, DiagnosticData};
use crate::span::Span;

pub type Recovery<'a> = ErrorRecovery<usize, Tok<'a>, ()>;

#[derive(Default)]
pub struct Builder<'a> {
    pub arena: Arena,
    pub recoveries: Vec<Recovery<'a>>,
    /// Faults the grammar accepts but the language does not (item-relative spans).
    pub faults: Vec<Diagnostic>,
}

/// How an infix operator groups.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Assoc {
    Left,
    Right,
}

/// Binding power and associativity of an infix operator. Higher binds tighter; function
/// application binds tighter than all of them.
pub fn fixity(op: &str) -> (u8, Assoc) {
    match op {
        "||" => (2, Assoc::Right),
        "&&" => (3, Assoc::Right),
        "==" | "!=" | "<" | "<=" | ">" | ">=" => (4, Assoc::Left),
        "::" => (5, Assoc::Right),
        "+" | "-" | "++" => (6, Assoc::Left),
        "*" | "/" | "%" => (7, Assoc::Left),
        // Operators the reference does not define group like `+`, to the left.
        _ => (6, Assoc::Left),
    }
}

impl<'a> Builder<'a> {
    pub fn expr(&mut self, kind: ExprKind, l: usize, r: usize) -> ExprId {
        self.expr_span(kind, Span::new(l, r))
    }

    pub fn expr_span(&mut self, kind: ExprKind, span: Span) -> ExprId {
        let id = ExprId(self.arena.exprs.len() as u32);
        self.arena.exprs.push(Expr { kind, span });
        id
    }

    pub fn pat(&mut self, kind: PatKind, l: usize, r: usize) -> PatId {
        let id = PatId(self.arena.pats.len() as u32);
        self.arena.pats.push(Pat {
            kind,
            span: Span::new(l, r),
        });
        id
    }

    pub fn ty(&mut self, kind: TypeKind, l: usize, r: usize) -> TypeId {
        let id = TypeId(self.arena.types.len() as u32);
        self.arena.types.push(TypeExpr {
            kind,
            span: Span::new(l, r),
        });
        id
    }

    pub fn span_of(&self, id: ExprId) -> Span {
        self.arena.expr(id).span
    }

    /// Records a recovered syntax error and returns the error node standing in for the text.
    pub fn error_expr(&mut self, rec: Recovery<'a>, l: usize, r: usize) -> ExprId {
        let skipped = rec
            .dropped_tokens
            .iter()
            .map(|(s, _, e)| Span::new(*s, *e))
            .collect();
        let span = recovery_span(&rec, l, r);
        self.recoveries.push(rec);
        self.expr_span(ExprKind::Error { skipped }, span)
    }

    /// The error node for a stretch the driver skipped (a `Skipped` token); an empty stretch
    /// is a missing element.
    pub fn skipped_expr(&mut self, l: usize, r: usize) -> ExprId {
        let skipped = if l < r { vec![Span::new(l, r)] } else { vec![] };
        self.expr(ExprKind::Error { skipped }, l, r)
    }

    /// The missing second element of a one-element tuple `(x,)`, reported at the `)`.
    pub fn missing_expr(&mut self, l: usize, r: usize) -> ExprId {
        self.report_missing(l, r, "an expression");
        self.expr(ExprKind::Error { skipped: vec![] }, l, l)
    }

    pub fn missing_pat(&mut self, l: usize, r: usize) -> PatId {
        self.report_missing(l, r, "a pattern");
        self.pat(PatKind::Error, l, l)
    }

    pub fn missing_ty(&mut self, l: usize, r: usize) -> TypeId {
        self.report_missing(l, r, "a type");
        self.ty(TypeKind::Error, l, l)
    }

    fn report_missing(&mut self, l: usize, r: usize, what: &str) {
        self.faults.push(
            Diagnostic::error(
                Code::UnexpectedToken,
                Span::new(l, r),
                format!("unexpected `)`; a tuple has two elements or more, expected {what}"),
            )
            .with_data(DiagnosticData::UnexpectedToken {
                found: "`)`".to_string(),
                expected: vec![what.to_string()],
                expected_tokens: vec![],
                skipped: vec![],
            }),
        );
    }

    pub fn error_pat(&mut self, rec: Recovery<'a>, l: usize, r: usize) -> PatId {
        let span = recovery_span(&rec, l, r);
        self.recoveries.push(rec);
        let id = PatId(self.arena.pats.len() as u32);
        self.arena.pats.push(Pat {
            kind: PatKind::Error,
            span,
        });
        id
    }

    pub fn error_ty(&mut self, rec: Recovery<'a>, l: usize, r: usize) -> TypeId {
        let span = recovery_span(&rec, l, r);
        self.recoveries.push(rec);
        let id = TypeId(self.arena.types.len() as u32);
        self.arena.types.push(TypeExpr {
            kind: TypeKind::Error,
            span,
        });
        id
    }

    pub fn record(&mut self, rec: Recovery<'a>) {
        self.recoveries.push(rec);
    }

    /// `-e`: folds into the literal when `e` is a numeric literal (the literal's own node
    /// becomes the negative one, so no node is left outside the tree).
    pub fn negate(&mut self, e: ExprId, l: usize, r: usize) -> ExprId {
        if let ExprKind::Lit(lit @ (Literal::Int(_) | Literal::Float(_))) = &self.arena.expr(e).kind
        {
            let negated = match lit {
                Literal::Int(s) if !s.starts_with('-') => Some(Literal::Int(format!("-{s}"))),
                Literal::Float(s) if !s.starts_with('-') => Some(Literal::Float(format!("-{s}"))),
                _ => None,
            };
            if let Some(lit) = negated {
                let node = &mut self.arena.exprs[e.0 as usize];
                node.kind = ExprKind::Lit(lit);
                node.span = Span::new(l, r);
                return e;
            }
        }
        self.expr(ExprKind::Negate(e), l, r)
    }

    /// Builds the tree of `first op1 e1 op2 e2 ...` by precedence climbing.
    pub fn binary_chain(&mut self, first: ExprId, rest: Vec<(Name, ExprId)>) -> ExprId {
        let mut operands = vec![first];
        let mut ops: Vec<Name> = Vec::new();
        for (op, rhs) in rest {
            let (prec, _) = fixity(&op.text);
            while let Some(top) = ops.last() {
                let (top_prec, top_assoc) = fixity(&top.text);
                if top_prec > prec || (top_prec == prec && top_assoc == Assoc::Left) {
                    self.reduce_top(&mut operands, &mut ops);
                } else {
                    break;
                }
            }
            ops.push(op);
            operands.push(rhs);
        }
        while !ops.is_empty() {
            self.reduce_top(&mut operands, &mut ops);
        }
        operands.pop().unwrap_or(first)
    }

    fn reduce_top(&mut self, operands: &mut Vec<ExprId>, ops: &mut Vec<Name>) {
        let (Some(op), Some(rhs), Some(lhs)) = (ops.pop(), operands.pop(), operands.pop()) else {
            return;
        };
        let span = self.span_of(lhs).cover(self.span_of(rhs));
        let id = self.expr_span(ExprKind::Binary { op, lhs, rhs }, span);
        operands.push(id);
    }
}

fn recovery_span(rec: &Recovery<'_>, l: usize, r: usize) -> Span {
    let mut span = Span::new(l, r);
    for (s, _, e) in &rec.dropped_tokens {
        span = span.cover(Span::new(*s, *e));
    }
    span
}

pub fn name(text: &str, l: usize, r: usize) -> Name {
    Name {
        text: text.to_string(),
        span: Span::new(l, r),
    }
}

/// Splits a variant's arguments: a single record type is a record payload.
pub fn variant_payload(arena: &Arena, args: Vec<TypeId>) -> VariantPayload {
    if let [only] = args.as_slice() {
        if let TypeKind::Record(fields) = &arena.ty(*only).kind {
            return VariantPayload::Record(fields.clone());
        }
    }
    VariantPayload::Positional(args)
}

/// Marks a declaration `pub`.
pub fn set_pub(mut item: ItemKind, is_pub: bool) -> ItemKind {
    match &mut item {
        ItemKind::Fn(d) => d.is_pub = is_pub,
        ItemKind::Type(d) => d.is_pub = is_pub,
        ItemKind::Class(d) => d.is_pub = is_pub,
        ItemKind::Instance(d) => d.is_pub = is_pub,
        ItemKind::Import(d) => d.is_pub = is_pub,
        ItemKind::Expr(_) | ItemKind::Error => {}
    }
    item
}
