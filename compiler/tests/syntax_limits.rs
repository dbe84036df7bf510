//! Pathologically deep or long inputs: the parser must neither overflow the stack nor give
//! up silently. Each input either parses or is reported with a clear diagnostic (nesting
//! too deep, E0107). These run on the default test-thread stack on purpose: nothing in the
//! parser may recurse once per nesting level.

use rex_compiler::syntax::ast::ItemKind;
use rex_compiler::syntax::parser::{parse_text, ParsedFile};
use rex_compiler::{Code, Diagnostic};

fn too_deep(parsed: &ParsedFile) -> Vec<&Diagnostic> {
    parsed
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::NestingTooDeep)
        .collect()
}

/// Rejected as too deep, with that as the only diagnostic.
fn assert_too_deep(text: &str) {
    let parsed = parse_text(text);
    let deep = too_deep(&parsed);
    assert_eq!(
        deep.len(),
        1,
        "expected one nesting diagnostic, got {:?}",
        &parsed.diagnostics[..parsed.diagnostics.len().min(4)]
    );
    assert_eq!(deep[0].code.as_str(), "E0107");
    assert!(deep[0].message.contains("deep"), "{}", deep[0].message);
    assert_eq!(
        parsed.diagnostics.len(),
        1,
        "one fault, one diagnostic: {:?}",
        &parsed.diagnostics[..parsed.diagnostics.len().min(4)]
    );
    assert!(matches!(parsed.items[0].kind, ItemKind::Error));
}

/// Parsed without any diagnostic.
fn assert_clean(text: &str) -> ParsedFile {
    let parsed = parse_text(text);
    assert!(
        parsed.diagnostics.is_empty(),
        "{:?}",
        &parsed.diagnostics[..parsed.diagnostics.len().min(4)]
    );
    parsed
}

#[test]
fn hundred_thousand_open_parens() {
    let parsed = parse_text(&"(".repeat(100_000));
    let deep = too_deep(&parsed);
    assert_eq!(
        deep.len(),
        1,
        "{:?}",
        &parsed.diagnostics[..4.min(parsed.diagnostics.len())]
    );
    assert_eq!(deep[0].code.as_str(), "E0107");
    assert!(parsed.diagnostics.len() <= 2, "{:?}", parsed.diagnostics);
}

#[test]
fn hundred_thousand_closing_brackets() {
    let parsed = parse_text(&format!("f x{}", ")]}".repeat(33_000)));
    assert!(!parsed.diagnostics.is_empty());
    assert!(
        parsed.diagnostics.len() <= 8,
        "{:?}",
        &parsed.diagnostics[..4]
    );
    let parsed = parse_text(&format!("{}\nfn g : i32 = 1", "(1 +) ".repeat(2_000)));
    assert!(!parsed.diagnostics.is_empty());
}

#[test]
fn hundred_thousand_balanced_parens() {
    let text = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert_too_deep(&text);
}

#[test]
fn hundred_thousand_nested_lists() {
    let parsed = parse_text(&"[".repeat(100_000));
    assert_eq!(too_deep(&parsed).len(), 1);
    assert!(parsed.diagnostics.len() <= 2, "{:?}", parsed.diagnostics);
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_too_deep(&text);
}

#[test]
fn long_cons_chain() {
    let text = format!("{}[]", "1::".repeat(100_000));
    assert_too_deep(&text);
}

#[test]
fn long_sum() {
    let text = format!("1{}", " + 1".repeat(100_000));
    assert_too_deep(&text);
}

#[test]
fn long_application_and_projection_chains() {
    assert_too_deep(&format!("f{}", " x".repeat(100_000)));
    assert_too_deep(&format!("r{}", ".a".repeat(100_000)));
}

#[test]
fn many_negations() {
    assert_too_deep(&format!("{}x", "- ".repeat(100_000)));
}

#[test]
fn fifty_thousand_nested_lambdas() {
    let text = format!("{}x", "\\x -> ".repeat(50_000));
    assert_too_deep(&text);
}

#[test]
fn long_let_chains() {
    let one_line = format!("{}x", "let x = 1 in ".repeat(50_000));
    assert_too_deep(&one_line);
    let lines = format!("{}x\n", "let x = 1 in\n".repeat(50_000));
    assert_too_deep(&lines);
    let bindings: Vec<String> = (0..50_000).map(|i| format!("  x{i} = {i}")).collect();
    let wide = format!("let\n{}\nin\n  x0\n", bindings.join(",\n"));
    let parsed = assert_clean(&wide);
    assert!(matches!(parsed.items[0].kind, ItemKind::Expr(_)));
}

#[test]
fn long_if_and_match_chains() {
    assert_too_deep(&format!("{}0", "if true then 1 else ".repeat(50_000)));
    assert_too_deep(&format!("{}0", "match x when _ -> ".repeat(50_000)));
}

#[test]
fn deep_patterns_and_types() {
    let pattern = format!("match x when {}[] -> 0", "1::".repeat(100_000));
    assert_too_deep(&pattern);
    let arrow = format!("fn f : {}i32 = ?", "i32 -> ".repeat(100_000));
    assert_too_deep(&arrow);
    let record = format!("type T = T {}i32{}", "{ a: ".repeat(300), " }".repeat(300));
    assert_too_deep(&record);
    // Within the limits, deep but reasonable nesting parses.
    let parens = format!("match x when {}y{} -> 0", "(".repeat(200), ")".repeat(200));
    assert_clean(&parens);
    assert_clean(&format!("{}[]", "1::".repeat(900)));
}

#[test]
fn deep_nesting_with_an_error_inside() {
    // Recovery must not be what recurses or goes quadratic.
    let text = format!("{}1 +{}", "(".repeat(200), ")".repeat(200));
    let parsed = parse_text(&text);
    assert!(!parsed.diagnostics.is_empty());
    let text = format!("{}x = ", "\\x -> ".repeat(50_000));
    let parsed = parse_text(&text);
    assert!(!parsed.diagnostics.is_empty());
}

#[test]
fn many_items() {
    let text: String = (0..20_000)
        .map(|i| format!("fn f{i} : i32 -> i32 = \\x -> x + {i}\n"))
        .collect();
    assert_eq!(assert_clean(&text).items.len(), 20_000);
}
