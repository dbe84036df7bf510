//! Types, schemes and class predicates, and their printing in the reference's notation
//! (`Result string string`, `List i32`, `'a -> 'b`).

use std::collections::HashMap;
use std::fmt::{self, Write};
use std::sync::Arc;

/// A unification variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TyVar(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A unification variable (only inside one inference run).
    Var(TyVar),
    /// The i-th quantified variable of a scheme.
    Gen(u32),
    /// A rigid type variable from a signature, by name.
    Rigid(Arc<str>),
    /// A type constructor: `i32`, `List`, `Result`.
    Con(Arc<str>),
    /// Type application, curried: `Result e a` is `App(App(Result, e), a)`.
    App(Box<Ty>, Box<Ty>),
    Fun(Box<Ty>, Box<Ty>),
    /// `()` is the empty tuple.
    Tuple(Vec<Ty>),
    /// Fields sorted by name.
    Record(Vec<(Arc<str>, Ty)>),
    /// The gradual unknown type of marked nodes: consistent with every type.
    Unknown,
}

/// The built-in type constructors and their arity (the prelude declares List, Option and
/// Result in Rex).
pub const PRIMITIVE_TYPES: &[(&str, usize)] = &[
    ("bool", 0),
    ("i8", 0),
    ("i16", 0),
    ("i32", 0),
    ("i64", 0),
    ("u8", 0),
    ("u16", 0),
    ("u32", 0),
    ("u64", 0),
    ("f32", 0),
    ("f64", 0),
    ("string", 0),
    ("uuid", 0),
    ("datetime", 0),
    ("Array", 1),
    ("Dict", 1),
    ("Promise", 1),
];

pub fn is_primitive_scalar(name: &str) -> bool {
    PRIMITIVE_TYPES.iter().any(|(n, a)| *n == name && *a == 0)
}

impl Ty {
    pub fn con(name: &str) -> Ty {
        Ty::Con(Arc::from(name))
    }

    pub fn fun(a: Ty, b: Ty) -> Ty {
        Ty::Fun(Box::new(a), Box::new(b))
    }

    pub fn app(f: Ty, a: Ty) -> Ty {
        Ty::App(Box::new(f), Box::new(a))
    }

    /// `C t1 t2 ...`
    pub fn con_app(name: &str, args: Vec<Ty>) -> Ty {
        args.into_iter().fold(Ty::con(name), Ty::app)
    }

    pub fn unit() -> Ty {
        Ty::Tuple(vec![])
    }

    /// The head constructor and arguments of an application spine.
    pub fn spine(&self) -> (&Ty, Vec<&Ty>) {
        let mut args = Vec::new();
        let mut t = self;
        while let Ty::App(f, a) = t {
            args.push(&**a);
            t = f;
        }
        args.reverse();
        (t, args)
    }

    pub fn head_name(&self) -> Option<&str> {
        match self.spine().0 {
            Ty::Con(n) => Some(n),
            _ => None,
        }
    }

    pub fn contains_unknown(&self) -> bool {
        let mut found = false;
        self.visit(&mut |t| found |= matches!(t, Ty::Unknown));
        found
    }

    pub fn is_ground(&self) -> bool {
        let mut ground = true;
        self.visit(&mut |t| ground &= !matches!(t, Ty::Var(_) | Ty::Gen(_) | Ty::Rigid(_)));
        ground
    }

    /// Pre-order traversal.
    pub fn visit(&self, f: &mut impl FnMut(&Ty)) {
        f(self);
        match self {
            Ty::App(a, b) | Ty::Fun(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Ty::Tuple(ts) => ts.iter().for_each(|t| t.visit(f)),
            Ty::Record(fs) => fs.iter().for_each(|(_, t)| t.visit(f)),
            _ => {}
        }
    }

    /// Rebuilds the type bottom-up through `f` (applied to leaves and rebuilt nodes alike).
    pub fn map(&self, f: &mut impl FnMut(&Ty) -> Option<Ty>) -> Ty {
        if let Some(t) = f(self) {
            return t;
        }
        match self {
            Ty::App(a, b) => Ty::App(Box::new(a.map(f)), Box::new(b.map(f))),
            Ty::Fun(a, b) => Ty::Fun(Box::new(a.map(f)), Box::new(b.map(f))),
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| t.map(f)).collect()),
            Ty::Record(fs) => Ty::Record(fs.iter().map(|(n, t)| (n.clone(), t.map(f))).collect()),
            other => other.clone(),
        }
    }

    /// Replaces `Gen(i)` by `args[i]`.
    pub fn instantiate(&self, args: &[Ty]) -> Ty {
        self.map(&mut |t| match t {
            Ty::Gen(i) => Some(args.get(*i as usize).cloned().unwrap_or(Ty::Unknown)),
            _ => None,
        })
    }

    pub fn free_vars(&self, out: &mut Vec<TyVar>) {
        self.visit(&mut |t| {
            if let Ty::Var(v) = t {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
        });
    }
}

/// A class constraint `C t1 ... tn`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pred {
    pub class: Arc<str>,
    pub args: Vec<Ty>,
}

impl Pred {
    pub fn new(class: &str, args: Vec<Ty>) -> Pred {
        Pred {
            class: Arc::from(class),
            args,
        }
    }

    pub fn map_types(&self, mut f: impl FnMut(&Ty) -> Ty) -> Pred {
        Pred {
            class: self.class.clone(),
            args: self.args.iter().map(&mut f).collect(),
        }
    }
}

/// A polymorphic type: `forall Gen(0..vars). preds => ty`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scheme {
    pub vars: u32,
    /// Optional display names of the quantified variables.
    pub var_names: Vec<Arc<str>>,
    pub preds: Vec<Pred>,
    pub ty: Ty,
}

impl Scheme {
    pub fn mono(ty: Ty) -> Scheme {
        Scheme {
            vars: 0,
            var_names: vec![],
            preds: vec![],
            ty,
        }
    }

    /// The quantified variables as rigid types named as in the signature (`t{i}` where no
    /// name was written): how a declaration's body sees them.
    pub fn rigid_args(&self) -> Vec<Ty> {
        (0..self.vars as usize)
            .map(|i| {
                Ty::Rigid(
                    self.var_names
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| Arc::from(format!("t{i}"))),
                )
            })
            .collect()
    }

    /// The type with its quantified variables rigid (see `rigid_args`).
    pub fn rigid_ty(&self) -> Ty {
        self.ty.instantiate(&self.rigid_args())
    }
}

/// Prints types with type variables named `'a`, `'b`, ... in order of first appearance.
#[derive(Default)]
pub struct TypePrinter {
    names: HashMap<VarKey, String>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum VarKey {
    Var(u32),
    Gen(u32),
}

impl TypePrinter {
    pub fn new() -> TypePrinter {
        TypePrinter::default()
    }

    fn var_name(&mut self, key: VarKey) -> String {
        let n = self.names.len();
        self.names
            .entry(key)
            .or_insert_with(|| {
                let letter = (b'a' + (n % 26) as u8) as char;
                if n < 26 {
                    format!("'{letter}")
                } else {
                    format!("'{letter}{}", n / 26)
                }
            })
            .clone()
    }

    pub fn ty(&mut self, t: &Ty) -> String {
        let mut s = String::new();
        self.write(&mut s, t, Prec::Top);
        s
    }

    pub fn pred(&mut self, p: &Pred) -> String {
        let mut s = p.class.to_string();
        for a in &p.args {
            s.push(' ');
            self.write(&mut s, a, Prec::Atom);
        }
        s
    }

    pub fn scheme(&mut self, sc: &Scheme) -> String {
        let ty = self.ty(&sc.ty);
        if sc.preds.is_empty() {
            return ty;
        }
        let preds: Vec<String> = sc.preds.iter().map(|p| self.pred(p)).collect();
        format!("{} => {ty}", preds.join(", "))
    }

    fn write(&mut self, out: &mut String, t: &Ty, prec: Prec) {
        match t {
            Ty::Var(v) => {
                let n = self.var_name(VarKey::Var(v.0));
                out.push_str(&n);
            }
            Ty::Gen(i) => {
                let n = self.var_name(VarKey::Gen(*i));
                out.push_str(&n);
            }
            Ty::Rigid(name) => {
                let _ = write!(out, "'{name}");
            }
            Ty::Con(name) => out.push_str(name),
            Ty::Unknown => out.push('?'),
            Ty::Fun(a, b) => {
                let paren = prec != Prec::Top;
                if paren {
                    out.push('(');
                }
                self.write(out, a, Prec::Arg);
                out.push_str(" -> ");
                self.write(out, b, Prec::Top);
                if paren {
                    out.push(')');
                }
            }
            Ty::App(..) => {
                let (head, mut args) = t.spine();
                // Result is stored error-first; it is written success-first.
                let flipped;
                if let (Ty::Con(n), 2) = (head, args.len()) {
                    if &**n == "Result" {
                        flipped = [args[1], args[0]];
                        args = flipped.to_vec();
                    }
                }
                let paren = prec == Prec::Atom;
                if paren {
                    out.push('(');
                }
                self.write(out, head, Prec::Atom);
                for a in args {
                    out.push(' ');
                    self.write(out, a, Prec::Atom);
                }
                if paren {
                    out.push(')');
                }
            }
            Ty::Tuple(ts) => {
                out.push('(');
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(out, t, Prec::Top);
                }
                out.push(')');
            }
            Ty::Record(fs) => {
                out.push('{');
                for (i, (n, t)) in fs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{n}: ");
                    self.write(out, t, Prec::Top);
                }
                out.push('}');
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prec {
    Top,
    Arg,
    Atom,
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&TypePrinter::new().ty(self))
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&TypePrinter::new().scheme(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_reference_notation() {
        let result = Ty::con_app("Result", vec![Ty::con("string"), Ty::con("i32")]);
        assert_eq!(result.to_string(), "Result i32 string");
        let list = Ty::con_app("List", vec![Ty::con("i32")]);
        assert_eq!(list.to_string(), "List i32");
        let f = Ty::fun(Ty::Var(TyVar(3)), Ty::Var(TyVar(7)));
        assert_eq!(f.to_string(), "'a -> 'b");
        let hof = Ty::fun(f.clone(), Ty::con_app("List", vec![f]));
        assert_eq!(hof.to_string(), "('a -> 'b) -> List ('a -> 'b)");
        let tup = Ty::Tuple(vec![Ty::con("i32"), Ty::con("bool")]);
        assert_eq!(tup.to_string(), "(i32, bool)");
    }
}
