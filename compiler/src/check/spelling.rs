//! Types printed as a file writes them. The checker knows a declaration of another module
//! by its identity (`app.Model`); the file spells it `Model` after `import app (*)` and
//! `A.Model` after `import app as A`. A type the file cannot spell at all (a module's type
//! reached through a field, never imported by name) keeps its identity, which names its
//! module. The hole reports print this way, and so does the IDE's static retrieval: a
//! reader (or a model) can write back what it is shown.

use std::collections::HashMap;
use std::sync::Arc;

use super::Env;
use crate::types::{Pred, Scheme, Ty, TypePrinter};

/// Identity -> the file's spelling, for the types and classes whose spelling differs.
pub struct Spelling {
    types: HashMap<Arc<str>, Arc<str>>,
    classes: HashMap<Arc<str>, Arc<str>>,
}

impl Spelling {
    pub fn new(env: &Env) -> Spelling {
        Spelling {
            types: best_spellings(&env.type_aliases, |s| env.resolve_type(s)),
            classes: best_spellings(&env.class_aliases, |s| env.resolve_class(s)),
        }
    }

    /// The file's name for the type with this identity.
    pub fn type_name(&self, identity: &str) -> String {
        self.types
            .get(identity)
            .map_or_else(|| identity.to_string(), |s| s.to_string())
    }

    /// `t` with every type the file spells otherwise renamed to that spelling.
    pub fn respell(&self, t: &Ty) -> Ty {
        t.map(&mut |t| match t {
            Ty::Con(id) => self.types.get(id).map(|s| Ty::Con(s.clone())),
            _ => None,
        })
    }

    /// A type printed in the file's spelling.
    pub fn ty(&self, t: &Ty) -> String {
        self.respell(t).to_string()
    }

    /// A scheme printed in the file's spelling.
    pub fn scheme(&self, sc: &Scheme) -> String {
        TypePrinter::new().scheme(&self.respell_scheme(sc))
    }

    /// `sc` with its types and classes renamed to the file's spellings.
    pub fn respell_scheme(&self, sc: &Scheme) -> Scheme {
        Scheme {
            ty: self.respell(&sc.ty),
            preds: sc
                .preds
                .iter()
                .map(|p| Pred {
                    class: self
                        .classes
                        .get(&p.class)
                        .cloned()
                        .unwrap_or(p.class.clone()),
                    args: p.args.iter().map(|a| self.respell(a)).collect(),
                })
                .collect(),
            ..sc.clone()
        }
    }
}

/// For each identity spelled otherwise somewhere: the file's best spelling of it, an
/// unqualified one before a qualified one, the shorter first. An identity the file
/// already spells as itself is left alone.
fn best_spellings(
    aliases: &std::collections::BTreeMap<Arc<str>, Arc<str>>,
    resolve: impl Fn(&str) -> Option<Arc<str>>,
) -> HashMap<Arc<str>, Arc<str>> {
    let mut out: HashMap<Arc<str>, Arc<str>> = HashMap::new();
    for (spelled, id) in aliases {
        if resolve(id).as_deref() == Some(&**id) {
            continue;
        }
        let key = |s: &str| (s.contains('.'), s.len());
        match out.get(id) {
            Some(old) if key(old) <= key(spelled) => {}
            _ => {
                out.insert(id.clone(), spelled.clone());
            }
        }
    }
    out
}
