//! The syntax tree. Each top-level item owns an arena of expressions, patterns and types;
//! nodes refer to each other by index, so trees of any depth are dropped without recursion
//! and every node has a stable id that analyses key their results by.

use crate::span::Span;

macro_rules! id_type {
    ($name:ident) => {
        #[derive(
            Clone,
            Copy,
            Debug,
            PartialEq,
            Eq,
            Hash,
            PartialOrd,
            Ord,
            serde::Serialize,
            serde::Deserialize,
        )]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}
id_type!(ExprId);
id_type!(PatId);
id_type!(TypeId);

/// An identifier (or operator) with the span where it is written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// A possibly module-qualified name: `Cons`, `D.Boxed`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Path {
    pub qualifier: Option<Name>,
    pub name: Name,
}

impl Path {
    pub fn span(&self) -> Span {
        match &self.qualifier {
            Some(q) => q.span.cover(self.name.span),
            None => self.name.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Literal {
    /// Decimal digits, with a leading `-` for negative literals.
    Int(String),
    /// Float text as written, with a leading `-` for negative literals.
    Float(String),
    Str(String),
    Bool(bool),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ExprKind {
    /// Text the parser could not read; it behaves as an anonymous hole. `skipped` holds the
    /// spans of the tokens that were dropped.
    Error {
        skipped: Vec<Span>,
    },
    /// `?` (None) or `?name`.
    Hole(Option<String>),
    Var(String),
    /// An upper-case name: a constructor, or a module alias before `.`.
    Ctor(String),
    Lit(Literal),
    App(ExprId, ExprId),
    Lambda {
        params: Vec<Param>,
        constraints: Vec<Constraint>,
        body: ExprId,
    },
    Let {
        rec: bool,
        bindings: Vec<Binding>,
        body: ExprId,
    },
    If(ExprId, ExprId, ExprId),
    Match {
        scrutinee: ExprId,
        arms: Vec<Arm>,
    },
    /// `(a, b, ...)`; the unit value `()` is the empty tuple.
    Tuple(Vec<ExprId>),
    List(Vec<ExprId>),
    /// `{ a = 1, b = 2 }`: a dict, or a record where its type says so.
    Dict(Vec<FieldInit>),
    /// `{ base with { f = e } }`
    Update {
        base: ExprId,
        fields: Vec<FieldInit>,
    },
    /// `base.field`; also `Alias.name` and tuple projection `t.0`.
    Project {
        base: ExprId,
        field: Name,
    },
    /// A binary operator application (precedence already resolved).
    Binary {
        op: Name,
        lhs: ExprId,
        rhs: ExprId,
    },
    /// Prefix `-e` on a non-literal.
    Negate(ExprId),
    /// An operator used as a value: `(+)`.
    OpRef(Name),
    /// `e is T`
    Ascribe {
        expr: ExprId,
        ty: TypeId,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Param {
    pub pat: PatId,
    pub ty: Option<TypeId>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Binding {
    pub pat: PatId,
    pub ty: Option<TypeId>,
    pub value: ExprId,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Arm {
    pub pat: PatId,
    pub body: ExprId,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FieldInit {
    pub name: Name,
    pub value: ExprId,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pat {
    pub kind: PatKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum PatKind {
    Error,
    Wildcard,
    Var(String),
    Lit(Literal),
    Ctor {
        path: Path,
        args: Vec<PatId>,
    },
    Tuple(Vec<PatId>),
    List(Vec<PatId>),
    Cons(PatId, PatId),
    /// `{a, b}` key presence, or `{x: p}` fields of a record payload.
    Dict(Vec<FieldPat>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FieldPat {
    pub name: Name,
    pub pat: Option<PatId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TypeKind {
    Error,
    /// A lower-case name: a primitive type (`i32`) or a type variable (`a`).
    Name(String),
    /// A type constructor, possibly qualified: `List`, `D.Boxed`.
    Con(Path),
    App(TypeId, Vec<TypeId>),
    Arrow(TypeId, TypeId),
    Tuple(Vec<TypeId>),
    Record(Vec<(Name, TypeId)>),
}

/// `Class t1 t2`
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Constraint {
    pub class: Path,
    pub args: Vec<TypeId>,
    pub span: Span,
}

/// The nodes of one item.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Arena {
    pub exprs: Vec<Expr>,
    pub pats: Vec<Pat>,
    pub types: Vec<TypeExpr>,
}

impl Arena {
    /// The outermost constructor or name of a type (`List` for `List (Option a)`, `i32`,
    /// `->`, `()`, `{}`).
    pub fn type_head(&self, id: TypeId) -> String {
        match &self.ty(id).kind {
            TypeKind::Name(n) => n.clone(),
            TypeKind::Con(path) => path.name.text.clone(),
            TypeKind::App(f, _) => self.type_head(*f),
            TypeKind::Arrow(..) => "->".to_string(),
            TypeKind::Tuple(_) => "()".to_string(),
            TypeKind::Record(_) => "{}".to_string(),
            TypeKind::Error => String::new(),
        }
    }

    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }
    pub fn pat(&self, id: PatId) -> &Pat {
        &self.pats[id.index()]
    }
    pub fn ty(&self, id: TypeId) -> &TypeExpr {
        &self.types[id.index()]
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Item {
    pub kind: ItemKind,
    /// Byte offset of the item's first token in the file. Every span inside the item
    /// (including `span`) is relative to it, so the item compares equal after edits elsewhere.
    pub offset: u32,
    /// The item's text, from its first to its last token (relative).
    pub span: Span,
    pub arena: Arena,
}

impl Item {
    /// An item-relative span made absolute.
    pub fn abs(&self, span: Span) -> Span {
        span.shift(self.offset as i64)
    }

    /// An item that could not be read at all, with nothing in it.
    pub fn unreadable() -> Item {
        Item {
            kind: ItemKind::Error,
            offset: 0,
            span: Span::default(),
            arena: Arena::default(),
        }
    }

    /// What names the item among its file's items: its kind and declared name (`fn area`,
    /// `instance Show List`, `import a.b`, `expression`).
    pub fn label(&self) -> String {
        let named = |kind: &str, name: &str| format!("{kind} {name}");
        match &self.kind {
            ItemKind::Fn(d) => named("fn", &d.name.text),
            ItemKind::Type(d) => named("type", &d.name.text),
            ItemKind::Class(d) => named("class", &d.name.text),
            ItemKind::Instance(d) => {
                let heads: Vec<String> = d.args.iter().map(|a| self.arena.type_head(*a)).collect();
                named(
                    "instance",
                    &format!("{} {}", d.class.name.text, heads.join(" ")),
                )
            }
            ItemKind::Import(d) => {
                let path: Vec<&str> = d.path.iter().map(|n| n.text.as_str()).collect();
                named("import", &path.join("."))
            }
            ItemKind::Expr(_) => "expression".to_string(),
            ItemKind::Error => "unreadable".to_string(),
        }
    }

    /// The item without what the program's environment never reads: the bodies of
    /// functions and instance methods, patterns, and the extent of items that have a body.
    /// Equal before and after an edit inside a body or the result expression. Every body
    /// becomes one placeholder expression. (A module file's result expression is an error
    /// reported with its span; modules are declared from their whole syntax, `db::program`.)
    pub fn declaration(&self) -> Item {
        let placeholder = |span: Span| Expr {
            kind: ExprKind::Hole(None),
            span,
        };
        let mut kind = self.kind.clone();
        let (expr, span) = match &mut kind {
            ItemKind::Fn(d) => {
                d.body = ExprId(0);
                (placeholder(Span::default()), Span::default())
            }
            ItemKind::Instance(d) => {
                for m in &mut d.methods {
                    m.body = ExprId(0);
                }
                (placeholder(Span::default()), Span::default())
            }
            ItemKind::Expr(e) => {
                *e = ExprId(0);
                (placeholder(Span::default()), Span::default())
            }
            _ => (placeholder(Span::default()), self.span),
        };
        Item {
            kind,
            offset: 0,
            span,
            arena: Arena {
                exprs: vec![expr],
                pats: Vec::new(),
                types: self.arena.types.clone(),
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ItemKind {
    Fn(FnDecl),
    Type(TypeDecl),
    Class(ClassDecl),
    Instance(InstanceDecl),
    Import(ImportDecl),
    /// The program's result expression.
    Expr(ExprId),
    /// An item that could not be read at all.
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FnParam {
    pub name: Name,
    pub ty: TypeId,
}

/// `fn name : T where C = body`, or with named parameters `fn name x: A -> B = body`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FnDecl {
    pub is_pub: bool,
    pub name: Name,
    /// Named parameters (empty for the `fn name : T` form).
    pub params: Vec<FnParam>,
    /// The result type after the parameters, or the whole signature when there are none.
    pub ret: TypeId,
    pub constraints: Vec<Constraint>,
    pub body: ExprId,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TypeDecl {
    pub is_pub: bool,
    pub name: Name,
    pub params: Vec<Name>,
    pub variants: Vec<Variant>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Variant {
    pub name: Name,
    pub payload: VariantPayload,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum VariantPayload {
    Positional(Vec<TypeId>),
    Record(Vec<(Name, TypeId)>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ClassDecl {
    pub is_pub: bool,
    pub name: Name,
    pub params: Vec<Name>,
    pub supers: Vec<Constraint>,
    pub methods: Vec<MethodSig>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MethodSig {
    pub name: Name,
    pub ty: TypeId,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct InstanceDecl {
    pub is_pub: bool,
    pub class: Path,
    pub args: Vec<TypeId>,
    pub context: Vec<Constraint>,
    pub methods: Vec<MethodImpl>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MethodImpl {
    pub name: Name,
    pub body: ExprId,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ImportDecl {
    pub is_pub: bool,
    /// `foo.bar` as its segments; a leading `super` walks up a directory.
    pub path: Vec<Name>,
    pub spec: ImportSpec,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ImportSpec {
    /// `import foo.bar` with no clause: only the module's instances take effect.
    Plain,
    /// `import foo.bar as Bar`
    Alias(Name),
    /// `import foo.bar (*)`
    All,
    /// `import foo.bar (x, y as z)`
    Items(Vec<ImportItem>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ImportItem {
    pub name: Name,
    pub alias: Option<Name>,
}

impl ExprKind {
    /// Calls `f` on each direct sub-expression, in source order.
    pub fn for_each_child(&self, mut f: impl FnMut(ExprId)) {
        match self {
            ExprKind::Error { .. }
            | ExprKind::Hole(_)
            | ExprKind::Var(_)
            | ExprKind::Ctor(_)
            | ExprKind::Lit(_)
            | ExprKind::OpRef(_) => {}
            ExprKind::App(a, b) => {
                f(*a);
                f(*b);
            }
            ExprKind::Lambda { body, .. } => f(*body),
            ExprKind::Let { bindings, body, .. } => {
                for b in bindings {
                    f(b.value);
                }
                f(*body);
            }
            ExprKind::If(c, t, e) => {
                f(*c);
                f(*t);
                f(*e);
            }
            ExprKind::Match { scrutinee, arms } => {
                f(*scrutinee);
                for arm in arms {
                    f(arm.body);
                }
            }
            ExprKind::Tuple(es) | ExprKind::List(es) => es.iter().for_each(|e| f(*e)),
            ExprKind::Dict(fields) => fields.iter().for_each(|fi| f(fi.value)),
            ExprKind::Update { base, fields } => {
                f(*base);
                fields.iter().for_each(|fi| f(fi.value));
            }
            ExprKind::Project { base, .. } => f(*base),
            ExprKind::Binary { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs);
            }
            ExprKind::Negate(e) => f(*e),
            ExprKind::Ascribe { expr, .. } => f(*expr),
        }
    }
}

impl PatKind {
    /// Calls `f` on each direct sub-pattern, in source order.
    pub fn for_each_child(&self, mut f: impl FnMut(PatId)) {
        match self {
            PatKind::Error | PatKind::Wildcard | PatKind::Var(_) | PatKind::Lit(_) => {}
            PatKind::Ctor { args, .. } => args.iter().for_each(|p| f(*p)),
            PatKind::Tuple(ps) | PatKind::List(ps) => ps.iter().for_each(|p| f(*p)),
            PatKind::Cons(h, t) => {
                f(*h);
                f(*t);
            }
            PatKind::Dict(fields) => fields.iter().filter_map(|fp| fp.pat).for_each(f),
        }
    }
}

impl TypeKind {
    /// Calls `f` on each direct sub-type, in source order.
    pub fn for_each_child(&self, mut f: impl FnMut(TypeId)) {
        match self {
            TypeKind::Error | TypeKind::Name(_) | TypeKind::Con(_) => {}
            TypeKind::App(head, args) => {
                f(*head);
                args.iter().for_each(|t| f(*t));
            }
            TypeKind::Arrow(a, b) => {
                f(*a);
                f(*b);
            }
            TypeKind::Tuple(ts) => ts.iter().for_each(|t| f(*t)),
            TypeKind::Record(fields) => fields.iter().for_each(|(_, t)| f(*t)),
        }
    }
}

/// The depth of the deepest node of a forest whose children precede their parents.
fn max_depth<N>(nodes: &[N], for_each_child: impl Fn(&N, &mut dyn FnMut(usize))) -> usize {
    let mut depth = vec![0u32; nodes.len()];
    let mut max = 0;
    for (i, node) in nodes.iter().enumerate() {
        let mut d = 0;
        for_each_child(node, &mut |c| d = d.max(depth.get(c).copied().unwrap_or(0)));
        depth[i] = d + 1;
        max = max.max(d + 1);
    }
    max as usize
}

impl Arena {
    /// The nesting depth of the deepest pattern (one forward pass, as for expressions).
    pub fn max_pat_depth(&self) -> usize {
        max_depth(&self.pats, |p, f| p.kind.for_each_child(|c| f(c.index())))
    }

    /// The nesting depth of the deepest type expression (one forward pass).
    pub fn max_type_depth(&self) -> usize {
        max_depth(&self.types, |t, f| t.kind.for_each_child(|c| f(c.index())))
    }

    /// The nesting depth of the deepest expression. Children are always allocated before
    /// their parents, so one forward pass suffices (no recursion).
    pub fn max_expr_depth(&self) -> usize {
        let mut depth = vec![0u32; self.exprs.len()];
        let mut max = 0;
        for (i, e) in self.exprs.iter().enumerate() {
            let mut d = 0;
            e.kind
                .for_each_child(|c| d = d.max(depth.get(c.index()).copied().unwrap_or(0)));
            depth[i] = d + 1;
            max = max.max(d + 1);
        }
        max as usize
    }
}
