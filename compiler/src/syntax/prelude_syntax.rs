//! The prelude's syntax tree, stored in the repository (`stdlib/prelude.syntax`) so that
//! a run does not parse the prelude: decoding the stored tree takes a fraction of parsing
//! its 22 KB of text, and every `rex run`, `rex check` and playground start pays for it.
//!
//! The stored tree carries the key the build script computes from every input that
//! decides the tree (the prelude's text, the syntax sources and the grammar). A tree
//! stored under another key is never used: the prelude is parsed instead, and the test
//! below fails until the file is written again with
//! `REX_BLESS=1 cargo test -p rex-compiler --lib prelude_syntax`.

use serde::{Deserialize, Serialize};

use crate::syntax::ast::Item;

mod key {
    include!(concat!(env!("OUT_DIR"), "/prelude_syntax_key.rs"));
}

const STORED: &[u8] = include_bytes!("../../../stdlib/prelude.syntax");

#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    key: u64,
    /// The items, encoded on their own so that a stale key is found without decoding them.
    #[serde(borrow)]
    items: &'a [u8],
}

/// The prelude's items as `parser::parse_text` gives them, when the stored tree was made
/// from the inputs this binary was built from.
pub fn stored_items() -> Option<Vec<Item>> {
    let stored: Stored = postcard::from_bytes(STORED).ok()?;
    if stored.key != key::KEY {
        return None;
    }
    postcard::from_bytes(stored.items).ok()
}

/// The bytes to store for `items`, the prelude's items under this build's key.
pub fn encode(items: &[Item]) -> Vec<u8> {
    let items = postcard::to_allocvec(items).expect("a syntax tree always encodes");
    postcard::to_allocvec(&Stored {
        key: key::KEY,
        items: &items,
    })
    .expect("a syntax tree always encodes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::PRELUDE_SOURCE;
    use crate::syntax::parser::parse_text;

    /// Where the stored tree lives, relative to the compiler crate.
    const STORED_PATH: &str = "../stdlib/prelude.syntax";

    #[test]
    fn the_stored_prelude_syntax_is_the_prelude_parsed() {
        let parsed = parse_text(PRELUDE_SOURCE);
        assert!(
            parsed.diagnostics.is_empty(),
            "the prelude has syntax errors: {:?}",
            parsed.diagnostics
        );
        let fresh = encode(&parsed.items);
        if fresh != STORED {
            if std::env::var_os("REX_BLESS").is_some() {
                let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(STORED_PATH);
                std::fs::write(&path, &fresh).expect("the stored prelude syntax is writable");
                panic!("wrote {}; build again to embed it", path.display());
            }
            panic!(
                "stdlib/prelude.syntax is out of date (the prelude, the grammar or the syntax \
                 tree changed): run `REX_BLESS=1 cargo test -p rex-compiler --lib prelude_syntax` \
                 and commit the file"
            );
        }
        assert_eq!(stored_items().as_ref(), Some(&parsed.items));
    }
}
