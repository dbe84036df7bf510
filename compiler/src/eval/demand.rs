//! Which top-level functions and instances a program uses. Lowering starts from the
//! program's own items and lowers a prelude `fn` or instance once something already
//! lowered refers to it, so a run checks and lowers the few prelude items it needs
//! instead of all two hundred (checking them all took about as long as the rest of
//! starting a run).

use super::ir::DictCode;
use super::value::Dict;

/// What is needed, and what of it is still to lower.
#[derive(Default)]
pub struct Demand {
    globals: Vec<bool>,
    instances: Vec<bool>,
    todo: Vec<Needed>,
}

/// An item to lower next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needed {
    Global(u32),
    Instance(u32),
}

impl Demand {
    pub fn new(globals: usize, instances: usize) -> Demand {
        Demand {
            globals: vec![false; globals],
            instances: vec![false; instances],
            todo: Vec::new(),
        }
    }

    /// Global `g` is referred to.
    pub fn global(&mut self, g: u32) {
        if let Some(seen @ false) = self.globals.get_mut(g as usize) {
            *seen = true;
            self.todo.push(Needed::Global(g));
        }
    }

    /// A dictionary of instance `i` may be built: its methods may run.
    pub fn instance(&mut self, i: u32) {
        if let Some(seen @ false) = self.instances.get_mut(i as usize) {
            *seen = true;
            self.todo.push(Needed::Instance(i));
        }
    }

    /// Every instance a dictionary code can build or reach: the ones it names, and those
    /// of the dictionaries built into it. (Superclass dictionaries come from their
    /// instance's own codes, which the caller passes here when it lowers that instance.)
    pub fn dict(&mut self, code: &DictCode) {
        match code {
            DictCode::Static(Some(d)) => self.dict_value(d),
            DictCode::Static(None) | DictCode::At(_) => {}
            DictCode::Build { instance, args } => {
                self.instance(*instance);
                for a in args.iter() {
                    self.dict(a);
                }
            }
            DictCode::Super { of, .. } => self.dict(of),
        }
    }

    fn dict_value(&mut self, d: &Dict) {
        self.instance(d.instance);
        for a in d.args.iter().flatten() {
            self.dict_value(a);
        }
    }

    /// The next item to lower, if any is left.
    pub fn take(&mut self) -> Option<Needed> {
        self.todo.pop()
    }
}
