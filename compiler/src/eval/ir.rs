//! The evaluator's intermediate form: the typed items lowered once per program into one
//! arena of nodes. Locals are frame slots, globals are indices, constructors are ids and
//! class methods go through dictionaries decided by the checker's evidence.

use std::rc::Rc;

use super::natives::Prim;
use super::value::{DictRef, Value};
use crate::span::Span;

pub type CodeId = u32;

/// Where a value lives in the running frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// A parameter or local of the frame.
    Local(u32),
    /// A value captured by the running closure.
    Capture(u32),
}

/// How a closure obtains one captured value from the frame that creates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    At(Loc),
    /// Member `index` of the rec group the creating frame belongs to.
    Member(u32),
}

/// How to obtain a dictionary at run time.
#[derive(Clone, Debug)]
pub enum DictCode {
    /// Built once, when the program is lowered.
    Static(DictRef),
    /// A dictionary parameter in scope.
    At(Loc),
    Build {
        instance: u32,
        args: Box<[DictCode]>,
    },
    Super {
        of: Box<DictCode>,
        index: u32,
    },
}

/// The primitive types a numeric literal can take, in the order `Code::Literal` keeps
/// its pre-read values.
pub const NUMERIC_TYPES: [&str; 10] = [
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
];

/// Most items a `MatchTuple` matches in place (`Code::MatchTuple::in_place`).
pub const MAX_IN_PLACE: usize = 4;

/// `repr(u8)`: the kind is a byte of its own, read by one load in each `match` (packed
/// into `Const`'s value, it took six instructions to decode every time).
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum Code {
    Const(Value),
    Local(u32),
    /// The last read of a local (`liveness`): the value is moved out of its slot.
    Move(u32),
    Capture(u32),
    /// Member `index` of the running rec group, as a value.
    Member(u32),
    /// A top-level function without class constraints (evaluated once).
    Global(u32),
    /// A top-level function with constraints, given its dictionaries.
    GlobalWith(u32, Box<[DictCode]>),
    Method {
        dict: DictCode,
        method: u32,
        name: Rc<str>,
    },
    /// A dictionary built at run time, as a value (an argument of a constrained binding).
    Dict(DictCode),
    /// An integer (or float) literal whose type a dictionary decides at run time.
    Literal {
        text: Rc<str>,
        dict: DictCode,
        /// The literal read at each of `NUMERIC_TYPES` (`None` where it does not fit).
        values: Box<[Option<Value>]>,
    },
    Lambda(u32),
    App(CodeId, Box<[CodeId]>),
    /// A call of a top-level function without constraints (skips building the callee).
    CallGlobal {
        global: u32,
        /// The `Global` node, for the first call (which evaluates the function).
        func: CodeId,
        args: Box<[CodeId]>,
    },
    /// A call of member `index` of the running rec group (a loop, without allocation).
    CallMember(u32, Box<[CodeId]>),
    Prim1(Prim, CodeId),
    Prim2(Prim, CodeId, CodeId),
    And(CodeId, CodeId),
    Or(CodeId, CodeId),
    If(CodeId, CodeId, CodeId),
    Let {
        slot: u32,
        value: CodeId,
        body: CodeId,
    },
    LetRec {
        group: u32,
        first_slot: u32,
        body: CodeId,
    },
    Match {
        scrutinee: CodeId,
        arms: Box<[(Pat, CodeId)]>,
    },
    /// A `match` on a tuple expression whose arms all take it apart (or ignore it): the
    /// parts are matched where they lie, and the tuple is built only to report it.
    MatchTuple {
        items: Box<[CodeId]>,
        arms: Box<[(Pat, CodeId)]>,
        /// The items are variables and every arm's parts are shallow (`Pat::shallow`):
        /// the parts are matched in their slots, without being copied out first.
        in_place: bool,
    },
    Construct {
        ctor: u32,
        args: Box<[CodeId]>,
    },
    Tuple(Box<[CodeId]>),
    List(Box<[CodeId]>),
    Record {
        names: Rc<[Rc<str>]>,
        values: Box<[CodeId]>,
    },
    Field {
        base: CodeId,
        name: Rc<str>,
    },
    TupleField {
        base: CodeId,
        index: u32,
    },
    Update {
        base: CodeId,
        names: Box<[Rc<str>]>,
        values: Box<[CodeId]>,
    },
    Hole(u32),
    /// An ill-typed or unreadable node: indeterminate (span absolute).
    Marked(Span),
}

#[derive(Clone, Debug)]
pub enum Pat {
    Wild,
    Bind(u32),
    Int(Rc<str>),
    Float(Rc<str>),
    Str(Rc<str>),
    Bool(bool),
    Ctor(u32, Box<[Pat]>),
    Tuple(Box<[Pat]>),
    /// Fields of a record (or keys of a dict), by name.
    Fields(Box<[(Rc<str>, Pat)]>),
    /// A pattern the checker rejected: matching it is indeterminate.
    Marked,
}

impl Pat {
    /// A variable, a wildcard, or a constructor whose fields are variables and wildcards:
    /// matching it looks at one constructor tag, and can bind but never fail deeper.
    pub fn shallow(&self) -> bool {
        let flat = |p: &Pat| matches!(p, Pat::Wild | Pat::Bind(_));
        match self {
            Pat::Ctor(_, subs) => subs.iter().all(flat),
            other => flat(other),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Lambda {
    pub arity: u32,
    /// Parameters plus locals.
    pub slots: u32,
    pub captures: Box<[Source]>,
    pub body: CodeId,
}

/// Lambdas bound by one `let rec`. Their frames see the group value as capture 0 and the
/// group's captured values after it.
#[derive(Clone, Debug)]
pub struct RecGroup {
    pub members: Box<[u32]>,
    pub captures: Box<[Source]>,
}

/// A hole site: its name, where it is, and the locals in scope there (innermost first).
#[derive(Clone, Debug)]
pub struct HoleSite {
    pub name: Option<String>,
    pub span: Span,
    /// The file the span is in.
    pub file: crate::check::FileRef,
    pub env: Vec<(Rc<str>, Loc)>,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: Rc<str>,
    /// The body takes the dictionaries as its parameters.
    pub body: u32,
    pub dicts: u32,
}

/// Constructor facts the machine and the printer need.
#[derive(Clone, Debug)]
pub struct CtorInfo {
    pub name: Rc<str>,
    pub arity: u32,
    /// Its type's index (constructors of one type share it).
    pub adt: u32,
    /// The prelude's list constructors print as `[a, b]`.
    pub list: Option<ListCtor>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListCtor {
    Empty,
    Cons,
}

/// One instance: its methods (bodies taking the context dictionaries, then the instance's
/// own dictionary) and how to reach its superclass dictionaries.
#[derive(Clone, Debug)]
pub struct InstanceInfo {
    pub class: Rc<str>,
    /// The head's type constructor (`i32`, `List`), for typing literals.
    pub head: Option<Rc<str>>,
    /// Indexed like the class's methods; `None` where the instance lacks one.
    pub methods: Vec<Option<u32>>,
    /// Indexed like the class's superclasses, in terms of the instance's parameters.
    pub supers: Vec<DictCode>,
}

#[derive(Default)]
pub struct Program {
    pub code: Vec<Code>,
    pub lambdas: Vec<Lambda>,
    pub groups: Vec<RecGroup>,
    pub globals: Vec<Global>,
    pub instances: Vec<InstanceInfo>,
    pub ctors: Vec<CtorInfo>,
    pub holes: Vec<HoleSite>,
    /// The program's result: a body without parameters.
    pub main: Option<u32>,
}

/// The field names (sorted) of the records `Code::Record` node `shape` builds.
pub fn record_names(code: &[Code], shape: CodeId) -> &[Rc<str>] {
    match code.get(shape as usize) {
        Some(Code::Record { names, .. }) => names,
        _ => &[],
    }
}

impl Code {
    /// Whether it is a variable or a constant read: a value needing no machine step,
    /// nothing to fail, and no node of its own.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        matches!(
            self,
            Code::Const(_) | Code::Local(_) | Code::Move(_) | Code::Capture(_)
        )
    }

    /// Calls `f` on each node this one refers to (not the bodies of lambdas it builds).
    pub fn for_each_child(&self, mut f: impl FnMut(CodeId)) {
        match self {
            Code::Const(_)
            | Code::Local(_)
            | Code::Move(_)
            | Code::Capture(_)
            | Code::Member(_)
            | Code::Global(_)
            | Code::GlobalWith(..)
            | Code::Method { .. }
            | Code::Dict(_)
            | Code::Literal { .. }
            | Code::Lambda(_)
            | Code::Hole(_)
            | Code::Marked(_) => {}
            Code::App(a, items)
            | Code::CallGlobal {
                func: a,
                args: items,
                ..
            } => {
                f(*a);
                items.iter().for_each(|i| f(*i));
            }
            Code::CallMember(_, items)
            | Code::Construct { args: items, .. }
            | Code::Tuple(items)
            | Code::List(items)
            | Code::Record { values: items, .. } => items.iter().for_each(|i| f(*i)),
            Code::Prim1(_, a)
            | Code::Field { base: a, .. }
            | Code::TupleField { base: a, .. }
            | Code::LetRec { body: a, .. } => f(*a),
            Code::Prim2(_, a, b) | Code::And(a, b) | Code::Or(a, b) => {
                f(*a);
                f(*b);
            }
            Code::If(a, b, c) => {
                f(*a);
                f(*b);
                f(*c);
            }
            Code::Let { value, body, .. } => {
                f(*value);
                f(*body);
            }
            Code::Match { scrutinee, arms } => {
                f(*scrutinee);
                arms.iter().for_each(|(_, b)| f(*b));
            }
            Code::MatchTuple { items, arms, .. } => {
                items.iter().for_each(|i| f(*i));
                arms.iter().for_each(|(_, b)| f(*b));
            }
            Code::Update { base, values, .. } => {
                f(*base);
                values.iter().for_each(|i| f(*i));
            }
        }
    }
}

/// `field_index`, looking first at position `guess` (a record's names are sorted, and
/// so are the parts of a record pattern that cannot fail: one naming every field finds
/// each at its own position).
#[inline]
pub fn field_index_near(names: &[Rc<str>], name: &Rc<str>, guess: usize) -> Option<usize> {
    match names.get(guess) {
        Some(x) if Rc::ptr_eq(x, name) => Some(guess),
        _ => field_index(names, name),
    }
}

/// Where field `name` is among a record's `names`. The lowering shares one string per
/// field name, so the pointers are compared first and the text only when none is equal.
#[inline]
pub fn field_index(names: &[Rc<str>], name: &Rc<str>) -> Option<usize> {
    names
        .iter()
        .position(|x| Rc::ptr_eq(x, name))
        .or_else(|| names.iter().position(|x| x == name))
}

impl Program {
    pub fn add(&mut self, c: Code) -> CodeId {
        self.code.push(c);
        (self.code.len() - 1) as CodeId
    }

    pub fn add_lambda(&mut self, l: Lambda) -> u32 {
        self.lambdas.push(l);
        (self.lambdas.len() - 1) as u32
    }
}
