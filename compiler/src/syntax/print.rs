//! A compact S-expression rendering of items, for snapshot tests and debugging.
//!
//! Expressions print as `(app f x)`, `(+ a b)`, `(lam (x (y : i32)) body)`, ...; names and
//! literals print as written; error nodes print with their item-relative span,
//! `(error 3..7)`, so a snapshot shows exactly what recovery skipped.

use std::fmt::Write;

use super::ast::*;

/// Renders an item, one line, prefixed by its kind and span.
pub fn print_item(item: &Item) -> String {
    let p = Printer { arena: &item.arena };
    let mut out = String::new();
    match &item.kind {
        ItemKind::Fn(d) => {
            out.push_str("(fn ");
            pub_mark(&mut out, d.is_pub);
            out.push_str(&d.name.text);
            if !d.params.is_empty() {
                out.push_str(" (params");
                for param in &d.params {
                    let _ = write!(out, " ({} {})", param.name.text, p.ty(param.ty));
                }
                out.push(')');
            }
            let _ = write!(out, " {}", p.ty(d.ret));
            p.constraints(&mut out, "where", &d.constraints);
            let _ = write!(out, " {})", p.expr(d.body));
        }
        ItemKind::Type(d) => {
            out.push_str("(type ");
            pub_mark(&mut out, d.is_pub);
            out.push_str(&d.name.text);
            for param in &d.params {
                let _ = write!(out, " {}", param.text);
            }
            for v in &d.variants {
                let _ = write!(out, " ({}", v.name.text);
                match &v.payload {
                    VariantPayload::Positional(args) => {
                        for a in args {
                            let _ = write!(out, " {}", p.ty(*a));
                        }
                    }
                    VariantPayload::Record(fields) => {
                        let _ = write!(out, " {}", p.record_ty(fields));
                    }
                }
                out.push(')');
            }
            out.push(')');
        }
        ItemKind::Class(d) => {
            out.push_str("(class ");
            pub_mark(&mut out, d.is_pub);
            out.push_str(&d.name.text);
            for param in &d.params {
                let _ = write!(out, " {}", param.text);
            }
            p.constraints(&mut out, "<=", &d.supers);
            for m in &d.methods {
                let _ = write!(out, " ({} : {})", m.name.text, p.ty(m.ty));
            }
            out.push(')');
        }
        ItemKind::Instance(d) => {
            out.push_str("(instance ");
            pub_mark(&mut out, d.is_pub);
            out.push_str(&path(&d.class));
            for a in &d.args {
                let _ = write!(out, " {}", p.ty(*a));
            }
            p.constraints(&mut out, "<=", &d.context);
            for m in &d.methods {
                let _ = write!(out, " ({} = {})", m.name.text, p.expr(m.body));
            }
            out.push(')');
        }
        ItemKind::Import(d) => {
            out.push_str("(import ");
            pub_mark(&mut out, d.is_pub);
            let segments: Vec<&str> = d.path.iter().map(|n| n.text.as_str()).collect();
            out.push_str(&segments.join("."));
            match &d.spec {
                ImportSpec::Plain => {}
                ImportSpec::Alias(a) => {
                    let _ = write!(out, " as {}", a.text);
                }
                ImportSpec::All => out.push_str(" (*)"),
                ImportSpec::Items(items) => {
                    out.push_str(" (");
                    for (i, it) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(' ');
                        }
                        match &it.alias {
                            Some(a) => {
                                let _ = write!(out, "({} as {})", it.name.text, a.text);
                            }
                            None => out.push_str(&it.name.text),
                        }
                    }
                    out.push(')');
                }
            }
            out.push(')');
        }
        ItemKind::Expr(e) => {
            let _ = write!(out, "(result {})", p.expr(*e));
        }
        ItemKind::Error => out.push_str("(error-item)"),
    }
    out
}

fn pub_mark(out: &mut String, is_pub: bool) {
    if is_pub {
        out.push_str("pub ");
    }
}

fn path(p: &Path) -> String {
    match &p.qualifier {
        Some(q) => format!("{}.{}", q.text, p.name.text),
        None => p.name.text.clone(),
    }
}

fn literal(l: &Literal) -> String {
    match l {
        Literal::Int(s) | Literal::Float(s) => s.clone(),
        Literal::Str(s) => format!("{s:?}"),
        Literal::Bool(b) => b.to_string(),
    }
}

struct Printer<'a> {
    arena: &'a Arena,
}

impl Printer<'_> {
    fn list(&self, head: &str, items: impl IntoIterator<Item = String>) -> String {
        let mut out = format!("({head}");
        for i in items {
            out.push(' ');
            out.push_str(&i);
        }
        out.push(')');
        out
    }

    fn expr(&self, id: ExprId) -> String {
        let e = self.arena.expr(id);
        match &e.kind {
            ExprKind::Error { .. } => format!("(error {:?})", e.span),
            ExprKind::Hole(None) => "?".to_string(),
            ExprKind::Hole(Some(n)) => format!("?{n}"),
            ExprKind::Var(v) | ExprKind::Ctor(v) => v.clone(),
            ExprKind::Lit(l) => literal(l),
            ExprKind::App(f, a) => format!("(app {} {})", self.expr(*f), self.expr(*a)),
            ExprKind::Lambda {
                params,
                constraints,
                body,
            } => {
                let ps: Vec<String> = params
                    .iter()
                    .map(|p| match p.ty {
                        Some(t) => format!("({} : {})", self.pat(p.pat), self.ty(t)),
                        None => self.pat(p.pat),
                    })
                    .collect();
                let mut out = format!("(lam ({})", ps.join(" "));
                self.constraints(&mut out, "where", constraints);
                let _ = write!(out, " {})", self.expr(*body));
                out
            }
            ExprKind::Let {
                rec,
                bindings,
                body,
            } => {
                let bs: Vec<String> = bindings
                    .iter()
                    .map(|b| match b.ty {
                        Some(t) => format!(
                            "({} : {} = {})",
                            self.pat(b.pat),
                            self.ty(t),
                            self.expr(b.value)
                        ),
                        None => format!("({} = {})", self.pat(b.pat), self.expr(b.value)),
                    })
                    .collect();
                let head = if *rec { "let-rec" } else { "let" };
                format!("({head} ({}) {})", bs.join(" "), self.expr(*body))
            }
            ExprKind::If(c, t, f) => {
                format!("(if {} {} {})", self.expr(*c), self.expr(*t), self.expr(*f))
            }
            ExprKind::Match { scrutinee, arms } => {
                let arms = arms
                    .iter()
                    .map(|a| format!("(when {} {})", self.pat(a.pat), self.expr(a.body)));
                let mut out = format!("(match {}", self.expr(*scrutinee));
                for a in arms {
                    out.push(' ');
                    out.push_str(&a);
                }
                out.push(')');
                out
            }
            ExprKind::Tuple(es) => self.list("tuple", es.iter().map(|e| self.expr(*e))),
            ExprKind::List(es) => self.list("list", es.iter().map(|e| self.expr(*e))),
            ExprKind::Dict(fs) => self.list("dict", self.fields(fs)),
            ExprKind::Update { base, fields } => {
                let head = format!("update {}", self.expr(*base));
                self.list(&head, self.fields(fields))
            }
            ExprKind::Project { base, field } => {
                format!("(. {} {})", self.expr(*base), field.text)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                format!("({} {} {})", op.text, self.expr(*lhs), self.expr(*rhs))
            }
            ExprKind::Negate(e) => format!("(neg {})", self.expr(*e)),
            ExprKind::OpRef(op) => format!("(op {})", op.text),
            ExprKind::Ascribe { expr, ty } => {
                format!("(is {} {})", self.expr(*expr), self.ty(*ty))
            }
        }
    }

    fn fields(&self, fs: &[FieldInit]) -> Vec<String> {
        fs.iter()
            .map(|f| format!("({} {})", f.name.text, self.expr(f.value)))
            .collect()
    }

    fn pat(&self, id: PatId) -> String {
        let p = self.arena.pat(id);
        match &p.kind {
            PatKind::Error => format!("(error {:?})", p.span),
            PatKind::Wildcard => "_".to_string(),
            PatKind::Var(v) => v.clone(),
            PatKind::Lit(l) => literal(l),
            PatKind::Ctor { path: c, args } if args.is_empty() => path(c),
            PatKind::Ctor { path: c, args } => {
                self.list(&path(c), args.iter().map(|a| self.pat(*a)))
            }
            PatKind::Tuple(ps) => self.list("tuple", ps.iter().map(|p| self.pat(*p))),
            PatKind::List(ps) => self.list("list", ps.iter().map(|p| self.pat(*p))),
            PatKind::Cons(h, t) => format!("(:: {} {})", self.pat(*h), self.pat(*t)),
            PatKind::Dict(fs) => self.list(
                "dict",
                fs.iter().map(|f| match f.pat {
                    Some(p) => format!("({} {})", f.name.text, self.pat(p)),
                    None => f.name.text.clone(),
                }),
            ),
        }
    }

    fn ty(&self, id: TypeId) -> String {
        let t = self.arena.ty(id);
        match &t.kind {
            TypeKind::Error => format!("(error {:?})", t.span),
            TypeKind::Name(n) => n.clone(),
            TypeKind::Con(p) => path(p),
            TypeKind::App(f, args) => self.list(&self.ty(*f), args.iter().map(|a| self.ty(*a))),
            TypeKind::Arrow(a, b) => format!("(-> {} {})", self.ty(*a), self.ty(*b)),
            TypeKind::Tuple(ts) => self.list("tuple", ts.iter().map(|t| self.ty(*t))),
            TypeKind::Record(fs) => self.record_ty(fs),
        }
    }

    fn record_ty(&self, fields: &[(Name, TypeId)]) -> String {
        self.list(
            "record",
            fields
                .iter()
                .map(|(n, t)| format!("({} {})", n.text, self.ty(*t))),
        )
    }

    fn constraints(&self, out: &mut String, head: &str, cs: &[Constraint]) {
        if cs.is_empty() {
            return;
        }
        let _ = write!(out, " ({head}");
        for c in cs {
            let mut s = format!("({}", path(&c.class));
            for a in &c.args {
                let _ = write!(s, " {}", self.ty(*a));
            }
            s.push(')');
            let _ = write!(out, " {s}");
        }
        out.push(')');
    }
}
