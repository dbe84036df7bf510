//! The type oracle both ways. It must never refuse a prefix of a well-typed fill: every
//! expression of every conformance program is cut to a hole and each of its prefixes
//! offered to the oracle at that hole. And it should refuse prefixes that cannot be
//! completed: hand-made ones on the pH program of the LLMS guide.

mod common;

use common::conformance_programs;

use rex_compiler::db::Database;
use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::parser::parse_text;
use rex_compiler::LineIndex;
use rex_llm::oracle::{closing_where, Oracle};

const PH: &str = include_str!("../../examples/holes.rex");

fn ph_oracle_verdicts(prefixes: &[&str]) -> Vec<(String, bool)> {
    verdicts(PH, prefixes)
}

/// The oracle's verdict on each prefix at the last hole of `program`.
fn verdicts(program: &str, prefixes: &[&str]) -> Vec<(String, bool)> {
    let db = Database::new();
    let file = db.add_file("program.rex", program.to_string());
    let offset = program.rfind('?').expect("the program has a hole");
    let pos = LineIndex::new(program).position(program, offset);
    let mut oracle = Oracle::new(&db, file, pos).expect("the position is on a hole");
    prefixes
        .iter()
        .map(|p| (p.to_string(), oracle.prefix_ok(p)))
        .collect()
}

const POINT: &str =
    "type Point = Point { x: i32, y: i32 }\n\nfn move_right : Point -> Point = \\p -> ?\n";

/// An unfinished record is checked field by field: a constructor's record as an update
/// of a hole, an update's fields as they stand.
#[test]
fn unfinished_records_are_checked_field_by_field() {
    let kept = [
        "Point { x = p.x + 1",
        "Point { x = p.x + 1, y = p.",
        "{ p with { x = p.x + 1",
        "{ p with { x = (p.x",
        "{ p with { x = 1, y",
        "Point { x = p.x,",
        "Point { x = p.x, y",
        "{ p with { x = 1,",
    ];
    for (p, ok) in verdicts(POINT, &kept) {
        assert!(ok, "refused the completable prefix `{p}`");
    }
    let refused = [
        "Point { x = x",
        "Point { x = \"a\"",
        "Point { x = p.x + 1, y = true",
        "{ p with { x = pt",
        "{ p with { y = p.y ==",
        // a field being started leaves those before it checked
        "Point { x = q,",
        "Point { x = p.x, y = \"\",",
        "Point { x = p.x, y = 1, name = 2",
        "{ p with { x = \"\", y",
    ];
    for (p, ok) in verdicts(POINT, &refused) {
        assert!(
            !ok,
            "kept the prefix `{p}`, which no completion can make well-typed"
        );
    }
}

#[test]
fn completable_prefixes_are_kept() {
    let kept = [
        "qc_label_from_sensor sensor_reading",
        "qc_label_from",
        "qc_label_from_sensor",
        "Ok (classify_ph",
        "Ok (classify_ph 7.",
        "match (parse_ph sensor_reading) when Ok p -> Ok (classify_ph p)",
        "match (parse_ph sensor_reading) when Ok p ->",
        "let r = parse_ph sensor_reading in",
        "if sensor_reading == \"7.3\" then Ok \"a\" else",
        "Err",
        "E",
        "",
        "(",
    ];
    for (p, ok) in ph_oracle_verdicts(&kept) {
        assert!(ok, "refused the completable prefix `{p}`");
    }
}

#[test]
fn prefixes_that_cannot_be_completed_are_refused() {
    let refused = [
        "parse_ph 3",
        "3",
        "\"abc\"",
        "true",
        "Err 3",
        "Ok (parse_ph",
        "Ok 3",
        "classify_ph",
        "parse_ph",
        "parse_ph sensor_reading",
        "unknown_name",
        "_",
        "[",
        "\"",
        "\"\\",
        "\"abc\" ++",
        "\\",
        "\\raw -> 7.3",
    ];
    for (p, ok) in ph_oracle_verdicts(&refused) {
        assert!(
            !ok,
            "kept the prefix `{p}`, which no completion can make well-typed"
        );
    }
}

/// Every expression of every conformance program, cut to a hole; all its prefixes at
/// token boundaries and inside its last token must be kept.
#[test]
fn no_prefix_of_a_conformance_expression_is_refused() {
    let Some(corpus) = conformance_programs() else {
        return;
    };
    let (mut exprs, mut prefixes, mut checks, mut fallbacks) = (0usize, 0usize, 0usize, 0usize);
    let mut refused = Vec::new();
    for (f, text) in corpus {
        let parsed = parse_text(&text);
        if parsed.diagnostics.iter().any(|d| d.is_error()) {
            continue;
        }
        for item in &parsed.items {
            for e in &item.arena.exprs {
                let span = item.abs(e.span);
                let (s, t) = (span.start as usize, span.end as usize);
                let original = &text[s..t];
                // Skip text that is not an expression by itself (a span that starts
                // inside parentheses it does not close).
                if original.contains('\n')
                    || original.trim() == "?"
                    || rex_llm::oracle::closing(original).is_none()
                {
                    continue;
                }
                let cut = format!("{}?{}", &text[..s], &text[t..]);
                let db = Database::new();
                let file = db.add_file("cut.rex", cut.clone());
                let pos = LineIndex::new(&cut).position(&cut, s);
                let Some(mut oracle) = Oracle::new(&db, file, pos) else {
                    continue;
                };
                // Only holes whose program the fill makes whole again count.
                if !oracle.fill_ok(original) {
                    continue;
                }
                exprs += 1;
                for p in prefix_points(original) {
                    prefixes += 1;
                    let before = oracle.fallbacks();
                    let kept = oracle.prefix_ok(&original[..p]);
                    if std::env::var_os("REX_ORACLE_SHOW_UNREAD").is_some()
                        && oracle.fallbacks() > before
                    {
                        println!("unread: `{}`", &original[..p]);
                    }
                    if !kept {
                        refused.push(format!(
                            "{}: `{}` of `{original}`",
                            f.file_name().unwrap_or_default().to_string_lossy(),
                            &original[..p]
                        ));
                    }
                }
                checks += oracle.checks();
                fallbacks += oracle.fallbacks();
            }
        }
    }
    println!(
        "{exprs} expressions, {prefixes} prefixes, {checks} item checks, {fallbacks} unreadable, {} refused",
        refused.len()
    );
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

/// Where prefixes are cut: each token's start and end, and each character of the last
/// token.
fn prefix_points(text: &str) -> Vec<usize> {
    let (tokens, _) = lex(text);
    let mut out = vec![0];
    for t in &tokens {
        out.push(t.span.start as usize);
        out.push(t.span.end as usize);
    }
    if let Some(last) = tokens.last() {
        out.extend(
            text.char_indices()
                .map(|(i, _)| i)
                .filter(|i| *i > last.span.start as usize),
        );
    }
    out.retain(|p| *p < text.len());
    out.sort_unstable();
    out.dedup();
    out
}

/// The function a hole is in, alone, type-checks but never returns: it is not a fill.
#[test]
fn a_function_is_not_its_own_body() {
    let program = "fn inc : i32 -> i32 = ?\n\nfn twice : i32 -> i32 = \\x -> inc (inc x)\n";
    let db = Database::new();
    let file = db.add_file("program.rex", program.to_string());
    let offset = program.find('?').expect("the program has a hole");
    let pos = LineIndex::new(program).position(program, offset);
    let mut oracle = Oracle::new(&db, file, pos).expect("the position is on a hole");
    for fill in ["inc", "(inc)", "( (inc) )", "(inc) is (i32 -> i32)"] {
        assert!(!oracle.fill_ok(fill), "`{fill}` was taken as a fill of inc");
    }
    // Ascribed, it stays itself; in brackets, it may still be applied.
    for (prefix, kept) in [
        ("(inc) is", false),
        ("inc is (", false),
        ("((inc) is", true),
    ] {
        assert_eq!(oracle.prefix_ok(prefix), kept, "`{prefix}`");
    }
    for fill in [
        "twice",
        "\\x -> x + 1",
        "\\x -> if x > 0 then inc (x - 1) else 0",
    ] {
        assert!(oracle.fill_ok(fill), "`{fill}` was refused");
    }
}

/// Each of `prefixes` is kept at a hole of each type of `kept_at` (the program `at(type)`)
/// exactly where that type says.
fn assert_kept_by_type(at: &dyn Fn(&str) -> String, kept_at: &[(&str, bool)], prefixes: &[&str]) {
    for (ty, kept) in kept_at {
        for (prefix, ok) in verdicts(&at(ty), prefixes) {
            assert_eq!(ok, *kept, "`{prefix}` at a hole of type {ty}");
        }
    }
}

/// A record literal opening the fill stands for a dictionary, or for the record type it is
/// expected to have: where neither can go, it is refused at its first field.
#[test]
fn a_record_literal_is_refused_where_no_dictionary_can_go() {
    let at = |ty: &str| format!("type P = P {{ x: i32 }}\n\nlet v : {ty} = ? in v\n");
    let kept_at = [
        ("i32", false),
        ("P", false),
        ("Array i32", false),
        ("Dict i32", true),
        ("bool", false),
        ("List (Dict i32)", true),
        ("{ n: i32 }", true),
    ];
    assert_kept_by_type(&at, &kept_at, &["{ n = 1", "{ n = 1, m = 2,"]);
    // A constructor's record, in brackets or not, is checked field by field.
    let (_, ok) = verdicts(&at("P"), &["P ({ x = 1"]).remove(0);
    assert!(ok, "`P ({{ x = 1` refused");
}

/// A brace that opens the fill becomes a dictionary or, by an update, one of the program's
/// record types: where neither fits, it is refused before its first field.
#[test]
fn a_brace_is_refused_where_no_dictionary_or_record_fits() {
    let at = |ty: &str| format!("type P = P {{ x: string }}\n\nlet v : {ty} = ? in v\n");
    let kept_at = [
        ("i32 -> i32", false),
        ("Option i32", false),
        ("P", true),
        ("Dict i32", true),
        ("i32", false),
        ("{ n: i32 }", true),
    ];
    assert_kept_by_type(&at, &kept_at, &["{", "{ p", "({ _x1"]);
    // An update is a record, or a field of one (`{ q with { .. } }.x`).
    let (_, ok) = verdicts(&at("i32"), &["{ q with"]).remove(0);
    assert!(!ok, "`{{ q with` at an i32");
    let (_, ok) = verdicts(&at("string"), &["{ q with"]).remove(0);
    assert!(ok, "`{{ q with` at a string");
}

/// An ascription being written is checked as far as it goes: its type, padded with type
/// variables for the arguments still to come, must fit what it annotates.
#[test]
fn an_ascription_is_checked_as_it_is_written() {
    let at = "fn inc : i32 -> i32 = ?\n";
    for (p, ok) in verdicts(
        at,
        &[
            "(\\x -> x) is",
            "(\\x -> x) is Array",
            "(\\x -> x) is Ar",
            "(\\x -> x) is (i32 -> i",
            "(\\x -> x) is (i32 -> i32",
            "(\\x -> x) is (i32 -> Option",
        ],
    ) {
        assert_eq!(ok, !p.contains("Ar") && !p.contains("Option"), "`{p}`");
    }
    let at_list = "let v : List (Option i32) = ? in v\n";
    for (p, ok) in verdicts(
        at_list,
        &[
            "[] is List",
            "[] is List (Option",
            "[] is List Option i32",
            "[] is Option",
        ],
    ) {
        assert_eq!(ok, p.ends_with("List") || p.ends_with("(Option"), "`{p}`");
    }
}

/// An ascription names a concrete type: a built-in scalar is whole as soon as it is
/// written, and a lower-case word after `is` must still become one.
#[test]
fn ascriptions_to_scalars_are_checked() {
    for (p, ok) in verdicts(POINT, &["p is Point", "p is i", "p is i32", "p is string"]) {
        assert_eq!(ok, p == "p is Point", "`{p}`");
    }
    let at_i64 = "let v : i64 = ? in v\n";
    for (p, ok) in verdicts(
        at_i64,
        &["4 is i", "4 is i64", "4 is u", "(4 is i64", "4 is u8"],
    ) {
        assert_eq!(ok, !p.ends_with("u8") && !p.ends_with('u'), "`{p}`");
    }
}

/// Any text made of the language's pieces, however jumbled (a model writes such text), is
/// closed or refused and gets a verdict from the oracle, never a panic.
#[test]
fn token_soup_gets_a_verdict() {
    const PIECES: &[&str] = &[
        "{", "}", "(", ")", "[", "]", " is ", ":", " = ", ",", " with ", "x", "Point", "Dict",
        "i32", " -> ", "\\", "let ", " in ", "if ", " then ", " else ", "match ", " when ", "1",
        "\"s", ".", " + ", "é", " ", "p", "?",
    ];
    let db = Database::new();
    let file = db.add_file("program.rex", POINT.to_string());
    let offset = POINT.rfind('?').expect("the program has a hole");
    let pos = LineIndex::new(POINT).position(POINT, offset);
    let mut oracle = Oracle::new(&db, file, pos).expect("the position is on a hole");
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut kept = 0;
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..8 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push_str(PIECES[(state % PIECES.len() as u64) as usize]);
            for may_be_record in [false, true] {
                let _ = closing_where(&text, may_be_record);
            }
            kept += usize::from(oracle.prefix_ok(&text));
            let _ = oracle.fill_ok(&text);
        }
    }
    assert!(kept > 0, "some soup starts a fill");
}
