//! Name resolution of one item, as a pure pass over its syntax: every local binding site,
//! the region where it is visible, and what each name occurrence refers to. This is the one
//! place local scoping is written: the checker (the type of each use is its binder's, the
//! locals at a hole are those visible there), the evaluator's lowering and the editor
//! features (go to definition, references, rename, completion, the locals an assist may use
//! at a position) all read it. The rules: `let` bindings are visible in later bindings and
//! the body, `let rec` bindings in every value too, lambda, `fn` parameters and `match` arm
//! patterns in their bodies, the innermost binding of a name shadowing the others.

use crate::span::Span;
use crate::syntax::ast::*;

/// What introduces a local name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocalKind {
    /// A named parameter of `fn name x: A -> B`.
    FnParam,
    /// A lambda parameter pattern.
    LambdaParam,
    /// A `let` (or `let rec`) binding.
    Let,
    /// A pattern of a `match` arm.
    MatchArm,
}

/// A local binding site. Spans are item-relative.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LocalDef {
    pub name: String,
    /// The binder itself (the name in the pattern or parameter list).
    pub span: Span,
    /// Where the name is visible (before shadowing).
    pub scope: Span,
    pub kind: LocalKind,
    /// The pattern node that binds it, when it is a variable pattern (its type is the
    /// checker's `pat_types` entry).
    pub pat: Option<PatId>,
    /// For `let` bindings: the bound value and whether the binding has an annotation.
    pub value: Option<ExprId>,
    pub annotated: bool,
    /// For `fn` parameters: the position in the parameter list.
    pub param_index: Option<usize>,
    /// For a field shorthand of a dict pattern (`{a}` binds `a`): that dict pattern.
    pub field_of: Option<PatId>,
    /// The construct that bound it: locals with the same `site` were bound together (by one
    /// lambda, one `let`, one `match` arm, or as the `fn`'s parameters).
    pub site: u32,
}

/// What a name occurrence refers to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The local binding with this index in `ItemNames::locals`.
    Local(usize),
    /// No local binding: a top-level value, method or constructor of that name (or an
    /// unknown name; the checker reports those).
    Global,
}

/// What kind of name an occurrence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UseKind {
    /// A lower-case value name in an expression.
    Value,
    /// A constructor in an expression or a pattern.
    Constructor,
    /// The name of a method implemented in an `instance`.
    MethodImpl,
    /// A type name in an annotation or signature.
    Type,
    /// A class name in a constraint or an instance head.
    Class,
}

/// One occurrence of a name. Spans are item-relative.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NameUse {
    pub name: String,
    pub span: Span,
    pub kind: UseKind,
    pub target: Target,
    /// The expression node of the occurrence, for value and constructor expressions.
    pub expr: Option<ExprId>,
    /// The pattern node of the occurrence, for constructor patterns.
    pub pat: Option<PatId>,
}

/// A top-level name an item declares. Spans are item-relative.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GlobalDef {
    pub name: String,
    pub span: Span,
    pub kind: GlobalKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlobalKind {
    Function,
    Type,
    Constructor,
    Class,
    Method,
}

/// Everything name resolution learned about one item.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ItemNames {
    /// In binding order: a binding nested in another's scope comes after it.
    pub locals: Vec<LocalDef>,
    /// In source order.
    pub uses: Vec<NameUse>,
    pub globals: Vec<GlobalDef>,
}

impl ItemNames {
    /// The local bindings visible at an item-relative offset, innermost first, shadowed
    /// ones left out.
    pub fn scope_at(&self, offset: usize) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for i in self.visible(|scope| scope.touches(offset)) {
            if !out
                .iter()
                .any(|j| self.locals[*j].name == self.locals[i].name)
            {
                out.push(i);
            }
        }
        out
    }

    /// The local bindings visible throughout the item-relative `span` (an expression's),
    /// innermost first, shadowed ones included.
    pub fn visible_over(&self, span: Span) -> Vec<usize> {
        self.visible(|scope| scope.covers(span)).collect()
    }

    /// The innermost local called `name` visible throughout `span`: what a name written
    /// implicitly there (an operator, `negate` for `-x`) denotes, if it is a local.
    pub fn innermost(&self, name: &str, span: Span) -> Option<usize> {
        (0..self.locals.len())
            .rev()
            .find(|i| self.locals[*i].name == name && self.locals[*i].scope.covers(span))
    }

    /// The locals whose scope passes `holds`, innermost first: a binding nested in
    /// another's scope comes after it in `locals`.
    fn visible<'a>(
        &'a self,
        holds: impl Fn(Span) -> bool + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        (0..self.locals.len())
            .rev()
            .filter(move |i| holds(self.locals[*i].scope))
    }

    /// The occurrence whose name touches `offset` (item-relative), if any.
    pub fn use_at(&self, offset: usize) -> Option<&NameUse> {
        self.uses
            .iter()
            .filter(|u| u.span.touches(offset))
            .min_by_key(|u| u.span.len())
    }

    /// The local binder whose name touches `offset`, if any.
    pub fn local_at(&self, offset: usize) -> Option<usize> {
        self.locals.iter().position(|d| d.span.touches(offset))
    }

    /// The top-level declaration whose name touches `offset`, if any.
    pub fn global_at(&self, offset: usize) -> Option<&GlobalDef> {
        self.globals.iter().find(|g| g.span.touches(offset))
    }
}

/// Resolves every name of `item`.
pub fn resolve_item(item: &Item) -> ItemNames {
    let mut r = Resolver {
        arena: &item.arena,
        out: ItemNames::default(),
        visible: Vec::new(),
        sites: 0,
    };
    match &item.kind {
        ItemKind::Fn(decl) => {
            r.global(&decl.name, GlobalKind::Function);
            for p in &decl.params {
                r.type_expr(p.ty);
            }
            r.type_expr(decl.ret);
            r.constraints(&decl.constraints);
            let scope = r.arena.expr(decl.body).span;
            let mark = r.visible.len();
            let site = r.site();
            for (i, p) in decl.params.iter().enumerate() {
                r.bind(LocalDef {
                    name: p.name.text.clone(),
                    span: p.name.span,
                    scope,
                    kind: LocalKind::FnParam,
                    pat: None,
                    value: None,
                    annotated: true,
                    param_index: Some(i),
                    field_of: None,
                    site,
                });
            }
            r.expr(decl.body);
            r.visible.truncate(mark);
        }
        ItemKind::Type(decl) => {
            r.global(&decl.name, GlobalKind::Type);
            for v in &decl.variants {
                r.global(&v.name, GlobalKind::Constructor);
                match &v.payload {
                    VariantPayload::Positional(ts) => ts.iter().for_each(|t| r.type_expr(*t)),
                    VariantPayload::Record(fs) => fs.iter().for_each(|(_, t)| r.type_expr(*t)),
                }
            }
        }
        ItemKind::Class(decl) => {
            r.global(&decl.name, GlobalKind::Class);
            r.constraints(&decl.supers);
            for m in &decl.methods {
                r.global(&m.name, GlobalKind::Method);
                r.type_expr(m.ty);
            }
        }
        ItemKind::Instance(decl) => {
            r.class_use(&decl.class);
            decl.args.iter().for_each(|t| r.type_expr(*t));
            r.constraints(&decl.context);
            for m in &decl.methods {
                r.out.uses.push(NameUse {
                    name: m.name.text.clone(),
                    span: m.name.span,
                    kind: UseKind::MethodImpl,
                    target: Target::Global,
                    expr: None,
                    pat: None,
                });
                r.expr(m.body);
            }
        }
        ItemKind::Expr(e) => r.expr(*e),
        ItemKind::Import(_) | ItemKind::Error => {}
    }
    r.out.uses.sort_by_key(|u| (u.span.start, u.span.end));
    r.out
}

struct Resolver<'a> {
    arena: &'a Arena,
    out: ItemNames,
    /// Indices into `out.locals` of the bindings visible now, outermost first.
    visible: Vec<usize>,
    /// How many binding constructs have been met.
    sites: u32,
}

/// Where the variables of one pattern are visible, and what binds them.
#[derive(Clone, Copy)]
struct Binder {
    scope: Span,
    kind: LocalKind,
    site: u32,
}

impl Resolver<'_> {
    /// A new binding construct.
    fn site(&mut self) -> u32 {
        self.sites += 1;
        self.sites - 1
    }

    fn global(&mut self, name: &Name, kind: GlobalKind) {
        self.out.globals.push(GlobalDef {
            name: name.text.clone(),
            span: name.span,
            kind,
        });
    }

    fn bind(&mut self, def: LocalDef) {
        self.out.locals.push(def);
        self.visible.push(self.out.locals.len() - 1);
    }

    fn lookup(&self, name: &str) -> Target {
        self.visible
            .iter()
            .rev()
            .find(|i| self.out.locals[**i].name == name)
            .map_or(Target::Global, |i| Target::Local(*i))
    }

    fn value_use(&mut self, name: &str, span: Span, expr: ExprId) {
        let target = self.lookup(name);
        self.out.uses.push(NameUse {
            name: name.to_string(),
            span,
            kind: UseKind::Value,
            target,
            expr: Some(expr),
            pat: None,
        });
    }

    /// A constructor at expression `expr` or pattern `pat`.
    fn ctor_use(&mut self, name: &Name, expr: Option<ExprId>, pat: Option<PatId>) {
        self.out.uses.push(NameUse {
            name: name.text.clone(),
            span: name.span,
            kind: UseKind::Constructor,
            target: Target::Global,
            expr,
            pat,
        });
    }

    fn expr(&mut self, e: ExprId) {
        let arena = self.arena;
        let node = arena.expr(e);
        match &node.kind {
            ExprKind::Var(name) => self.value_use(name, node.span, e),
            ExprKind::Ctor(name) => self.ctor_use(
                &Name {
                    text: name.clone(),
                    span: node.span,
                },
                Some(e),
                None,
            ),
            ExprKind::Lambda {
                params,
                constraints,
                body,
            } => {
                let mark = self.visible.len();
                let binder = Binder {
                    scope: arena.expr(*body).span,
                    kind: LocalKind::LambdaParam,
                    site: self.site(),
                };
                for p in params {
                    if let Some(t) = p.ty {
                        self.type_expr(t);
                    }
                    self.pattern(p.pat, binder, None, false);
                }
                self.constraints(constraints);
                self.expr(*body);
                self.visible.truncate(mark);
            }
            ExprKind::Let {
                rec,
                bindings,
                body,
            } => self.let_expr(*rec, bindings, *body),
            ExprKind::Match { scrutinee, arms } => {
                self.expr(*scrutinee);
                for arm in arms {
                    let mark = self.visible.len();
                    let binder = Binder {
                        scope: arena.expr(arm.body).span,
                        kind: LocalKind::MatchArm,
                        site: self.site(),
                    };
                    self.pattern(arm.pat, binder, None, false);
                    self.expr(arm.body);
                    self.visible.truncate(mark);
                }
            }
            ExprKind::Project { base, field } => match &arena.expr(*base).kind {
                // `Alias.name`: a name a module exports, spelled with its alias.
                ExprKind::Ctor(alias) => {
                    let upper = field.text.starts_with(|c: char| c.is_uppercase());
                    self.out.uses.push(NameUse {
                        name: format!("{alias}.{}", field.text),
                        span: node.span,
                        kind: if upper {
                            UseKind::Constructor
                        } else {
                            UseKind::Value
                        },
                        target: Target::Global,
                        expr: Some(e),
                        pat: None,
                    });
                }
                _ => self.expr(*base),
            },
            ExprKind::Ascribe { expr, ty } => {
                self.expr(*expr);
                self.type_expr(*ty);
            }
            other => other.for_each_child(|c| self.expr(c)),
        }
    }

    fn let_expr(&mut self, rec: bool, bindings: &[Binding], body: ExprId) {
        let arena = self.arena;
        let mark = self.visible.len();
        let body_span = arena.expr(body).span;
        let site = self.site();
        if rec {
            let binder = Binder {
                scope: bindings
                    .first()
                    .map_or(body_span, |b| b.span.cover(body_span)),
                kind: LocalKind::Let,
                site,
            };
            for b in bindings {
                if let Some(t) = b.ty {
                    self.type_expr(t);
                }
                self.pattern(b.pat, binder, Some(b.value), b.ty.is_some());
            }
            for b in bindings {
                self.expr(b.value);
            }
        } else {
            for (i, b) in bindings.iter().enumerate() {
                if let Some(t) = b.ty {
                    self.type_expr(t);
                }
                self.expr(b.value);
                let start = bindings.get(i + 1).map_or(body_span, |next| next.span);
                let binder = Binder {
                    scope: start.cover(body_span),
                    kind: LocalKind::Let,
                    site,
                };
                self.pattern(b.pat, binder, Some(b.value), b.ty.is_some());
            }
        }
        self.expr(body);
        self.visible.truncate(mark);
    }

    /// Binds the variables of pattern `p` (and records its constructor uses).
    fn pattern(&mut self, p: PatId, binder: Binder, value: Option<ExprId>, annotated: bool) {
        let pat = self.arena.pat(p);
        let Binder { scope, kind, site } = binder;
        match &pat.kind {
            PatKind::Var(name) => self.bind(LocalDef {
                name: name.clone(),
                span: pat.span,
                scope,
                kind,
                pat: Some(p),
                value,
                annotated,
                param_index: None,
                field_of: None,
                site,
            }),
            PatKind::Ctor { path, args } => {
                self.ctor_use(&spelled(path), None, Some(p));
                for a in args {
                    self.pattern(*a, binder, None, false);
                }
            }
            PatKind::Dict(fields) => {
                for f in fields {
                    match f.pat {
                        Some(sub) => self.pattern(sub, binder, None, false),
                        None => self.bind(LocalDef {
                            name: f.name.text.clone(),
                            span: f.name.span,
                            scope,
                            kind,
                            pat: None,
                            value: None,
                            annotated: false,
                            param_index: None,
                            field_of: Some(p),
                            site,
                        }),
                    }
                }
            }
            other => other.for_each_child(|c| self.pattern(c, binder, None, false)),
        }
    }

    fn constraints(&mut self, cs: &[Constraint]) {
        for c in cs {
            self.class_use(&c.class);
            c.args.iter().for_each(|t| self.type_expr(*t));
        }
    }

    fn class_use(&mut self, class: &Path) {
        self.path_use(class, UseKind::Class);
    }

    /// A type or class name, as written (`M.T` through a module alias).
    fn path_use(&mut self, path: &Path, kind: UseKind) {
        let name = spelled(path);
        self.out.uses.push(NameUse {
            name: name.text,
            span: name.span,
            kind,
            target: Target::Global,
            expr: None,
            pat: None,
        });
    }

    fn type_expr(&mut self, t: TypeId) {
        let node = self.arena.ty(t);
        if let TypeKind::Con(path) = &node.kind {
            self.path_use(path, UseKind::Type);
        }
        node.kind.for_each_child(|c| self.type_expr(c));
    }
}

/// The names of one item, cached per item like its types.
#[salsa::tracked(returns(ref))]
pub fn item_names<'db>(db: &'db dyn salsa::Database, key: crate::db::ItemKey<'db>) -> ItemNames {
    crate::db::item_syntax(db, key)
        .map(resolve_item)
        .unwrap_or_default()
}

/// The names of the prelude's items, resolved once for every file that runs.
#[salsa::tracked(returns(ref))]
pub fn prelude_names(db: &dyn salsa::Database, prelude: crate::db::Prelude) -> Vec<ItemNames> {
    crate::db::parse(db, prelude.file(db))
        .items
        .iter()
        .map(resolve_item)
        .collect()
}

/// A path as one name: `C`, or `M.C` through a module alias (covering both parts).
fn spelled(path: &Path) -> Name {
    match &path.qualifier {
        Some(q) => Name {
            text: format!("{}.{}", q.text, path.name.text),
            span: q.span.cover(path.name.span),
        },
        None => path.name.clone(),
    }
}
