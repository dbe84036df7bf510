//! Quick fixes and bulk repair at a position of a mutated program, both strategies, dry
//! run and not. A dry run never changes the document; the conservative strategy never
//! raises the error count.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rex_compiler::db::Database;
use rex_fuzz::{errors_of, program_and_position};
use rex_ide::bulk_repair::{apply_best_quick_fixes, BulkOptions, Strategy};

const URI: &str = "file:///fuzz.rex";

fuzz_target!(|data: &[u8]| {
    let (text, pos) = program_and_position(data);
    let offset = rex_compiler::LineIndex::new(&text).offset(&text, pos);
    let before = errors_of(&text);
    for strategy in [Strategy::Conservative, Strategy::Aggressive] {
        for dry_run in [true, false] {
            let mut db = Database::new();
            let file = db.add_file("fuzz.rex", text.clone());
            let options = BulkOptions {
                max_steps: 3,
                strategy,
                dry_run,
            };
            let result = apply_best_quick_fixes(&mut db, file, offset, options, URI);
            if dry_run {
                assert_eq!(
                    file.text(&db),
                    &text,
                    "a dry run leaves the document as it is"
                );
            }
            if strategy == Strategy::Conservative {
                let after = errors_of(&result.updated_text);
                assert!(
                    after <= before,
                    "conservative repair: {before} -> {after} errors"
                );
            }
        }
    }
});
