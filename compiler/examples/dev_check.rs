//! Development aid: prints every diagnostic of the given files (or of the prelude).
use rex_compiler::db::{prelude_errors, Database};
use rex_compiler::LineIndex;

fn main() {
    let db = Database::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        let prelude = db.prelude();
        let pf = prelude.file(&db);
        let text = pf.text(&db);
        let idx = LineIndex::new(text);
        for d in prelude_errors(&db, prelude) {
            let pos = idx.position(text, d.span.start as usize);
            println!(
                "prelude:{}:{}: {} {}",
                pos.line + 1,
                pos.character + 1,
                d.code.as_str(),
                d.message
            );
        }
        return;
    }
    for path in args {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let file = db.add_file(path.clone(), text.clone());
        let idx = LineIndex::new(&text);
        for d in db.diagnostics(file) {
            let pos = idx.position(&text, d.span.start as usize);
            println!(
                "{path}:{}:{}: {} {}",
                pos.line + 1,
                pos.character + 1,
                d.code.as_str(),
                d.message
            );
        }
    }
}
