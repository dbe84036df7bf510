//! Runtime values. Scalars are stored inline; everything with parts (constructors, tuples,
//! records, arrays, closures, partial applications) is one shared `Node`, dropped
//! iteratively so that a million-element list never overflows the native stack.

use std::cell::OnceCell;
use std::rc::Rc;

use crate::span::Span;

/// `repr(u64)` puts every payload at offset 8, so a value moves as two whole words
/// (the default packed layout made copies partial and stalled store forwarding).
#[derive(Clone, Debug)]
#[repr(u64)]
pub enum Value {
    Unit,
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Str(Rc<String>),
    /// A constructor without fields (`None`, `Empty`, user enums), by constructor id.
    Tag(u32),
    /// A constructor with fields used as a function (`Some` in `map Some xs`).
    CtorFn(u32),
    /// A native function (`prim_*`), unapplied.
    Native(u16),
    Node(Rc<Node>),
    /// A type-class dictionary (dictionary-passing of constrained functions).
    Dict(DictRef),
    /// An indeterminate value: a hole, or an operation stuck on one.
    Stuck(Rc<Stuck>),
}

#[derive(Debug)]
pub struct Node {
    pub kind: NodeKind,
    pub fields: Vec<Value>,
}

#[derive(Clone, Debug)]
pub enum NodeKind {
    /// A constructor applied to its fields (a record payload is one `Record` field).
    Data(u32),
    Tuple,
    /// Field values in the order of `names` (sorted).
    Record(Rc<[Rc<str>]>),
    Array,
    /// A closure over lambda `id`; the fields are its captured values.
    Closure(u32),
    /// A function value (field 0) applied to too few arguments (the other fields).
    Partial,
    /// The lambdas of one `let rec` (group id) sharing their captured values (the fields).
    Group(u32),
    /// Member `index` of a rec group, as a function value; field 0 is the group.
    Member(u32),
}

impl Node {
    pub fn value(kind: NodeKind, fields: Vec<Value>) -> Value {
        Value::Node(Rc::new(Node { kind, fields }))
    }
}

impl Drop for Node {
    /// Takes uniquely owned children apart in a loop instead of recursively.
    fn drop(&mut self) {
        if self.fields.iter().any(owns_parts) {
            drop_iteratively(std::mem::take(&mut self.fields));
        }
    }
}

impl Drop for Stuck {
    fn drop(&mut self) {
        let parts = self.take_parts();
        if parts.iter().any(owns_parts) {
            drop_iteratively(parts);
        }
    }
}

fn owns_parts(v: &Value) -> bool {
    match v {
        Value::Node(rc) => Rc::strong_count(rc) == 1,
        Value::Stuck(rc) => Rc::strong_count(rc) == 1,
        _ => false,
    }
}

/// Drops values whose uniquely owned parts are emptied into one work list first, so that
/// the `Drop` of each part finds nothing left to recurse into.
fn drop_iteratively(mut pending: Vec<Value>) {
    while let Some(v) = pending.pop() {
        match v {
            Value::Node(rc) => {
                if let Ok(mut node) = Rc::try_unwrap(rc) {
                    pending.append(&mut node.fields);
                }
            }
            Value::Stuck(rc) => {
                if let Ok(mut stuck) = Rc::try_unwrap(rc) {
                    pending.append(&mut stuck.take_parts());
                }
            }
            _ => {}
        }
    }
}

impl Stuck {
    /// Moves out the values this stuck form holds.
    fn take_parts(&mut self) -> Vec<Value> {
        match self {
            Stuck::Hole { .. } | Stuck::Marked { .. } | Stuck::Unresolved { .. } => Vec::new(),
            Stuck::Op { args, .. } => std::mem::take(args),
            Stuck::App { func, args } => {
                let mut out = std::mem::take(args);
                out.push(std::mem::replace(func, Value::Unit));
                out
            }
            Stuck::Match { scrutinee: v }
            | Stuck::If { cond: v }
            | Stuck::Field { base: v, .. } => {
                vec![std::mem::replace(v, Value::Unit)]
            }
        }
    }
}

/// A dictionary: an instance with the dictionaries of its context. `None` is a dictionary
/// nothing could supply (a type error or an ambiguity): what uses it is indeterminate.
pub type DictRef = Option<Rc<Dict>>;

#[derive(Debug)]
pub struct Dict {
    pub instance: u32,
    pub args: Vec<DictRef>,
    /// Method values, computed on first use.
    pub methods: Vec<OnceCell<Value>>,
    /// Superclass dictionaries, built on first use.
    pub supers: Vec<OnceCell<DictRef>>,
}

/// Why a value is indeterminate.
#[derive(Debug)]
pub enum Stuck {
    Hole {
        name: Option<String>,
        /// Index into the run's list of reached holes.
        reached: u32,
    },
    /// A node the checker marked as ill-typed.
    Marked { span: Span },
    /// A method whose instance could not be determined.
    Unresolved { method: Rc<str> },
    /// A native operation with an indeterminate operand.
    Op { op: &'static str, args: Vec<Value> },
    /// An indeterminate function applied to arguments.
    App { func: Value, args: Vec<Value> },
    /// A `match` whose scrutinee is indeterminate where a pattern needs to look at it.
    Match { scrutinee: Value },
    /// An `if` on an indeterminate condition.
    If { cond: Value },
    /// A field of an indeterminate record.
    Field { base: Value, field: Rc<str> },
}

impl Value {
    pub fn str(s: impl Into<String>) -> Value {
        Value::Str(Rc::new(s.into()))
    }

    pub fn stuck(s: Stuck) -> Value {
        Value::Stuck(Rc::new(s))
    }

    pub fn is_stuck(&self) -> bool {
        matches!(self, Value::Stuck(_))
    }
}
