//! Generates the parser from the grammar, and the key of the stored prelude syntax
//! (`syntax::prelude_syntax`): a hash of every input that decides the prelude's syntax
//! tree (the prelude's text, the syntax sources, the grammar and `span.rs`), so that a
//! stored tree made from other inputs is never used.

use std::fs;
use std::path::PathBuf;

fn main() {
    lalrpop::process_src().expect("the Rex grammar must compile");

    let mut inputs = vec![
        PathBuf::from("../stdlib/prelude.rex"),
        PathBuf::from("src/span.rs"),
    ];
    let mut syntax: Vec<PathBuf> = fs::read_dir("src/syntax")
        .expect("src/syntax is readable")
        .map(|entry| entry.expect("src/syntax is readable").path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("rs" | "lalrpop")
            )
        })
        // The module that reads the stored tree does not shape it.
        .filter(|p| !p.ends_with("prelude_syntax.rs"))
        .collect();
    syntax.sort();
    inputs.extend(syntax);

    let mut hash = Fnv::default();
    for path in &inputs {
        let text = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        hash.write(path.to_string_lossy().as_bytes());
        hash.write(&(text.len() as u64).to_le_bytes());
        hash.write(&text);
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(
        out.join("prelude_syntax_key.rs"),
        format!("pub const KEY: u64 = {:#018x};\n", hash.0),
    )
    .expect("OUT_DIR is writable");

    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/syntax");
    for path in &inputs {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// 64-bit FNV-1a.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
