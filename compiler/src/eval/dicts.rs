//! Building dictionaries: an instance with its context's dictionaries, and superclass
//! dictionaries reached from one. Pure data construction, bounded by the depth of the
//! checker's evidence.

use std::cell::OnceCell;
use std::rc::Rc;

use super::ir::{DictCode, Loc, Program};
use super::value::{Dict, DictRef};

pub fn new_dict(program: &Program, instance: u32, args: Vec<DictRef>) -> Rc<Dict> {
    let info = program.instances.get(instance as usize);
    let methods = info.map(|i| i.methods.len()).unwrap_or(0);
    let supers = info.map(|i| i.supers.len()).unwrap_or(0);
    Rc::new(Dict {
        instance,
        args,
        methods: (0..methods).map(|_| OnceCell::new()).collect(),
        supers: (0..supers).map(|_| OnceCell::new()).collect(),
    })
}

/// The `index`-th superclass dictionary of `d`, built once per dictionary.
pub fn super_dict(program: &Program, d: &Rc<Dict>, index: u32) -> DictRef {
    let cell = d.supers.get(index as usize)?;
    if let Some(done) = cell.get() {
        return done.clone();
    }
    let code = program
        .instances
        .get(d.instance as usize)
        .and_then(|i| i.supers.get(index as usize))?;
    // The instance's parameters: its context's dictionaries, then itself.
    let at = |loc: Loc| match loc {
        Loc::Local(i) if (i as usize) < d.args.len() => d.args[i as usize].clone(),
        Loc::Local(i) if i as usize == d.args.len() => Some(d.clone()),
        _ => None,
    };
    let built = resolve(program, code, &at);
    let _ = cell.set(built.clone());
    built
}

/// Evaluates a dictionary code, reading parameters through `at`.
pub fn resolve(program: &Program, code: &DictCode, at: &dyn Fn(Loc) -> DictRef) -> DictRef {
    match code {
        DictCode::Static(d) => d.clone(),
        DictCode::At(loc) => at(*loc),
        DictCode::Build { instance, args } => {
            let args = args.iter().map(|a| resolve(program, a, at)).collect();
            Some(new_dict(program, *instance, args))
        }
        DictCode::Super { of, index } => {
            let of = resolve(program, of, at)?;
            super_dict(program, &of, *index)
        }
    }
}
