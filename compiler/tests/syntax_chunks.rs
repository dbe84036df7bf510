//! Splitting a file a chunk at a time (`syntax::chunks`, as the database does after an
//! edit) gives the same pieces and lexer diagnostics as splitting it whole, for every
//! corpus program (the conformance programs, the repository's examples, the prelude) and
//! after edits at each line start that open or close strings, comments and brackets, add
//! declaration keywords or `pub`, or delete the line's first character.

mod common;
use common::{conformance_dir, rex_files};

use std::path::PathBuf;

use rex_compiler::syntax::chunks;
use rex_compiler::syntax::parser;

/// What is typed at a line's start.
const INSERTS: [&str; 12] = [
    "\"", "{-", "-}", "(", ")", "}", "pub\n", "pub ", "\nfn ", "fn ", "\\", "\"\n",
];

fn assert_same_split(name: &str, what: &str, text: &str) {
    assert_eq!(
        chunks::split(text, chunks::split_chunk),
        parser::split(text),
        "{name}: {what}"
    );
}

#[test]
fn chunked_split_is_the_whole_split_on_the_corpus_and_after_edits() {
    let mut programs = vec![(
        "prelude".to_string(),
        rex_compiler::db::PRELUDE_SOURCE.to_string(),
    )];
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files = rex_files(&examples);
    if let Some(dir) = conformance_dir() {
        files.extend(rex_files(&dir));
    }
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable program");
        programs.push((path.display().to_string(), text));
    }
    let mut edits = 0;
    for (name, text) in &programs {
        assert_same_split(name, "as it is", text);
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1));
        for at in line_starts {
            for insert in INSERTS {
                let edited = format!("{}{insert}{}", &text[..at], &text[at..]);
                assert_same_split(name, &format!("{insert:?} at {at}"), &edited);
                edits += 1;
            }
            if let Some(c) = text[at..].chars().next() {
                let edited = format!("{}{}", &text[..at], &text[at + c.len_utf8()..]);
                assert_same_split(name, &format!("deleting at {at}"), &edited);
                edits += 1;
            }
        }
    }
    println!("{} programs, {edits} edits", programs.len());
}
