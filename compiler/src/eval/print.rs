//! Printing values as the reference does: `3i32`, `2.5f32`, `"hi"`, `[1i32, 2i32]`,
//! `(1i32, true)`, `Some 2i32`, `Bar {z = 0f32}`, `{a = 1i32}`, `<closure>`, `?name`,
//! `<overloaded:map>` (a method no instance was chosen for).
//! Constructor arguments are not parenthesised, at any depth (`Ok Some Some 2i32`), as the
//! reference prints them; tuples and lists keep their own brackets. Indeterminate parts (a
//! stuck operation or application) are expressions, and are parenthesised where they stand
//! as an argument. Iterative (an explicit work list), so arbitrarily deep values print
//! without recursion.

use super::ir::{record_names, Code, CtorInfo, ListCtor, Program};
use super::natives::Prim;
use super::value::{NodeKind, Stuck, Value};

/// How a value's parts are named: constructors, and the names of reached holes.
pub struct Names<'a> {
    pub ctors: &'a [CtorInfo],
    /// The program's code, where records find their field names.
    pub code: &'a [Code],
}

enum Task<'v> {
    /// A value, and where it stands.
    Value(&'v Value, Place),
    Text(&'static str),
    Owned(String),
}

/// Where a value stands, which decides whether it needs parentheses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// On its own, or delimited by brackets or commas: never parenthesised.
    Free,
    /// An argument of a constructor: a constructor application is not parenthesised, an
    /// indeterminate expression is.
    CtorArg,
    /// An operand of an indeterminate expression: any application is parenthesised.
    Operand,
}

/// The text of a scalar as `show` renders it (no type suffix), or `None` for compound values.
pub fn show_scalar(v: &Value) -> Option<String> {
    Some(match v {
        Value::Unit => "()".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::I8(x) => x.to_string(),
        Value::I16(x) => x.to_string(),
        Value::I32(x) => x.to_string(),
        Value::I64(x) => x.to_string(),
        Value::U8(x) => x.to_string(),
        Value::U16(x) => x.to_string(),
        Value::U32(x) => x.to_string(),
        Value::U64(x) => x.to_string(),
        Value::F32(x) => x.to_string(),
        Value::F64(x) => x.to_string(),
        Value::Str(s) => quote(s),
        _ => return None,
    })
}

/// A string literal as the reference writes it.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn scalar_with_suffix(v: &Value) -> Option<String> {
    Some(match v {
        Value::I8(x) => format!("{x}i8"),
        Value::I16(x) => format!("{x}i16"),
        Value::I32(x) => format!("{x}i32"),
        Value::I64(x) => format!("{x}i64"),
        Value::U8(x) => format!("{x}u8"),
        Value::U16(x) => format!("{x}u16"),
        Value::U32(x) => format!("{x}u32"),
        Value::U64(x) => format!("{x}u64"),
        Value::F32(x) => format!("{x}f32"),
        Value::F64(x) => format!("{x}f64"),
        other => return show_scalar(other),
    })
}

impl<'a> Names<'a> {
    pub fn of(prog: &'a Program) -> Names<'a> {
        Names {
            ctors: &prog.ctors,
            code: &prog.code,
        }
    }

    fn ctor_name(&self, id: u32) -> &str {
        self.ctors.get(id as usize).map(|c| &*c.name).unwrap_or("?")
    }

    fn list_kind(&self, id: u32) -> Option<ListCtor> {
        self.ctors.get(id as usize).and_then(|c| c.list)
    }

    pub fn print(&self, v: &Value) -> String {
        let mut out = String::new();
        let mut work: Vec<Task<'_>> = vec![Task::Value(v, Place::Free)];
        while let Some(task) = work.pop() {
            match task {
                Task::Text(t) => out.push_str(t),
                Task::Owned(t) => out.push_str(&t),
                Task::Value(v, place) => self.value(v, place, &mut out, &mut work),
            }
        }
        out
    }

    /// Prints `v` directly, or schedules its parts (pushed in reverse order).
    fn value<'v>(&self, v: &'v Value, place: Place, out: &mut String, work: &mut Vec<Task<'v>>) {
        if let Some(s) = scalar_with_suffix(v) {
            out.push_str(&s);
            return;
        }
        match v {
            Value::Tag(id) => match self.list_kind(*id) {
                Some(ListCtor::Empty) => out.push_str("[]"),
                _ => out.push_str(self.ctor_name(*id)),
            },
            Value::CtorFn(_) | Value::Native(_) => out.push_str("<closure>"),
            Value::Dict(_) => out.push_str("<dictionary>"),
            Value::Stuck(s) => self.stuck(s, place, out, work),
            Value::Node(n) => match &n.kind {
                NodeKind::Closure(_)
                | NodeKind::Partial
                | NodeKind::Group(_)
                | NodeKind::Member(_) => out.push_str("<closure>"),
                NodeKind::Tuple => {
                    let mut parts = Vec::new();
                    parts.push(Task::Text("("));
                    sequence(&mut parts, n.fields.iter(), ", ");
                    parts.push(Task::Text(")"));
                    push_reversed(work, parts);
                }
                NodeKind::Array => {
                    let mut parts = vec![Task::Text("<array ")];
                    sequence(&mut parts, n.fields.iter(), ", ");
                    parts.push(Task::Text(">"));
                    push_reversed(work, parts);
                }
                NodeKind::Record(shape) => {
                    let names = record_names(self.code, *shape);
                    let mut parts = vec![Task::Text("{")];
                    for (i, (name, value)) in names.iter().zip(n.fields.iter()).enumerate() {
                        if i > 0 {
                            parts.push(Task::Text(", "));
                        }
                        parts.push(Task::Owned(format!("{name} = ")));
                        parts.push(Task::Value(value, Place::Free));
                    }
                    parts.push(Task::Text("}"));
                    push_reversed(work, parts);
                }
                NodeKind::Data(id) => {
                    if self.list_kind(*id) == Some(ListCtor::Cons) {
                        self.list(v, place, work);
                        return;
                    }
                    let parens = place == Place::Operand && !n.fields.is_empty();
                    let mut parts = Vec::new();
                    if parens {
                        parts.push(Task::Text("("));
                    }
                    parts.push(Task::Owned(self.ctor_name(*id).to_string()));
                    for f in n.fields.iter() {
                        parts.push(Task::Text(" "));
                        parts.push(Task::Value(f, Place::CtorArg));
                    }
                    if parens {
                        parts.push(Task::Text(")"));
                    }
                    push_reversed(work, parts);
                }
            },
            _ => out.push_str("<value>"),
        }
    }

    /// `[a, b, c]`; a list whose tail is indeterminate prints as `a :: b :: ?`.
    fn list<'v>(&self, mut cur: &'v Value, place: Place, work: &mut Vec<Task<'v>>) {
        let mut items: Vec<&'v Value> = Vec::new();
        loop {
            match cur {
                Value::Node(n) if matches!(n.kind, NodeKind::Data(id) if self.list_kind(id) == Some(ListCtor::Cons)) =>
                {
                    items.push(&n.fields[0]);
                    cur = &n.fields[1];
                }
                _ => break,
            }
        }
        let proper = matches!(cur, Value::Tag(id) if self.list_kind(*id) == Some(ListCtor::Empty));
        let mut parts = Vec::new();
        if proper {
            parts.push(Task::Text("["));
            sequence(&mut parts, items.into_iter(), ", ");
            parts.push(Task::Text("]"));
        } else {
            let parens = place != Place::Free;
            if parens {
                parts.push(Task::Text("("));
            }
            for item in items {
                parts.push(Task::Value(item, Place::Operand));
                parts.push(Task::Text(" :: "));
            }
            parts.push(Task::Value(cur, Place::Operand));
            if parens {
                parts.push(Task::Text(")"));
            }
        }
        push_reversed(work, parts);
    }

    fn stuck<'v>(&self, s: &'v Stuck, place: Place, out: &mut String, work: &mut Vec<Task<'v>>) {
        let mut parts = Vec::new();
        match s {
            Stuck::Hole { name, .. } => {
                out.push('?');
                if let Some(n) = name {
                    out.push_str(n);
                }
                return;
            }
            Stuck::Marked { .. } | Stuck::Literal { .. } => {
                out.push('?');
                return;
            }
            Stuck::Unresolved { method } => {
                out.push_str(&format!("<overloaded:{method}>"));
                return;
            }
            Stuck::Op { op, args } => {
                let infix = args.len() == 2 && Prim::NATIVES_INFIX.contains(op);
                if args.len() == 1 && matches!(*op, "&&" | "||") {
                    // The right operand was not evaluated.
                    parts.push(Task::Value(&args[0], Place::Operand));
                    parts.push(Task::Owned(format!(" {op} ...")));
                } else if infix {
                    parts.push(Task::Value(&args[0], Place::Operand));
                    parts.push(Task::Owned(format!(" {op} ")));
                    parts.push(Task::Value(&args[1], Place::Operand));
                } else {
                    parts.push(Task::Text(op));
                    for a in args {
                        parts.push(Task::Text(" "));
                        parts.push(Task::Value(a, Place::Operand));
                    }
                }
            }
            Stuck::App { func, args } => {
                if let Some(method) = overloaded(func, args) {
                    out.push_str(&format!("<overloaded:{method}>"));
                    return;
                }
                // An unresolved method applied to indeterminate arguments: `show ?`.
                match func {
                    Value::Stuck(f) => match &**f {
                        Stuck::Unresolved { method } => parts.push(Task::Owned(method.to_string())),
                        _ => parts.push(Task::Value(func, Place::Operand)),
                    },
                    _ => parts.push(Task::Value(func, Place::Operand)),
                }
                for a in args {
                    parts.push(Task::Text(" "));
                    parts.push(Task::Value(a, Place::Operand));
                }
            }
            Stuck::Match { scrutinee } => {
                parts.push(Task::Text("match "));
                parts.push(Task::Value(scrutinee, Place::Operand));
                parts.push(Task::Text(" ..."));
            }
            Stuck::If { cond } => {
                parts.push(Task::Text("if "));
                parts.push(Task::Value(cond, Place::Operand));
                parts.push(Task::Text(" then ... else ..."));
            }
            Stuck::Field { base, field } => {
                parts.push(Task::Value(base, Place::Operand));
                parts.push(Task::Owned(format!(".{field}")));
                push_reversed(work, parts);
                return;
            }
        }
        if place != Place::Free {
            parts.insert(0, Task::Text("("));
            parts.push(Task::Text(")"));
        }
        push_reversed(work, parts);
    }
}

impl Prim {
    /// The symbols of infix natives, as `Stuck::Op` records them.
    const NATIVES_INFIX: &'static [&'static str] = &[
        "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||",
    ];
}

/// The method of an overloaded value its arguments did not resolve: an unresolved method
/// applied to determinate arguments only (`map ((+) 1)` with no instance chosen).
fn overloaded<'v>(mut func: &'v Value, args: &[Value]) -> Option<&'v str> {
    if args.iter().any(Value::is_stuck) {
        return None;
    }
    loop {
        let Value::Stuck(s) = func else {
            return None;
        };
        match &**s {
            Stuck::Unresolved { method } => return Some(method),
            Stuck::App { func: f, args } if !args.iter().any(Value::is_stuck) => func = f,
            _ => return None,
        }
    }
}

fn sequence<'v>(
    parts: &mut Vec<Task<'v>>,
    items: impl Iterator<Item = &'v Value>,
    sep: &'static str,
) {
    for (i, v) in items.enumerate() {
        if i > 0 {
            parts.push(Task::Text(sep));
        }
        parts.push(Task::Value(v, Place::Free));
    }
}

fn push_reversed<'v>(work: &mut Vec<Task<'v>>, parts: Vec<Task<'v>>) {
    work.extend(parts.into_iter().rev());
}
