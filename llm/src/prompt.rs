//! The prompt for a base model: plain Rex text that ends where the fill begins. The static
//! context (`rex_ide::retrieval`: the definitions of the types around the hole, the values
//! that produce its type, the signatures the enclosing item calls, the hole's type) and the
//! feedback of failed attempts go first, as a Rex comment, the parts that change least
//! between holes first (so a warm engine reuses their cache); then the text after the hole,
//! also as a comment (a base model cannot fill in the middle); then the program up to the
//! hole: its enclosing item, or the whole file (`PrefixMode`).
//!
//! The prompt is packed under a token budget (`budget`): every part has a score, and parts
//! are dropped whole, lowest score first, until the text fits. Type definitions help a
//! model most, then headers (the Hazel paper's ablation), so they score in that order; the
//! context level (`ContextLevel`) leaves parts out altogether, for the ablation.

mod budget;

pub use budget::{Packed, PromptBudget, PromptTooLong, TokenCounter};

use rex_ide::retrieval::{Header, TypeDef};

use serde::Serialize;

/// How much static context the prompt carries (the ablation's settings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContextLevel {
    /// The program text alone.
    None,
    /// The hole's type (and the short primer of Rex shapes), no definitions.
    ExpectedType,
    /// The hole's type and the definitions of the types around it.
    Types,
    /// Types, and functions that produce the hole's type.
    #[default]
    TypesHeaders,
}

impl ContextLevel {
    /// Every level, least context first.
    pub const ALL: [ContextLevel; 4] = [
        ContextLevel::None,
        ContextLevel::ExpectedType,
        ContextLevel::Types,
        ContextLevel::TypesHeaders,
    ];

    /// The level as `--context` spells it.
    pub fn name(self) -> &'static str {
        match self {
            ContextLevel::None => "none",
            ContextLevel::ExpectedType => "expected-type",
            ContextLevel::Types => "types",
            ContextLevel::TypesHeaders => "types+headers",
        }
    }
}

impl std::str::FromStr for ContextLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<ContextLevel, String> {
        match s {
            "none" => Ok(ContextLevel::None),
            "expected-type" => Ok(ContextLevel::ExpectedType),
            "types" => Ok(ContextLevel::Types),
            "types+headers" => Ok(ContextLevel::TypesHeaders),
            other => Err(format!(
                "unknown context level `{other}` (none, expected-type, types, types+headers)"
            )),
        }
    }
}

/// What program text goes before the hole: the enclosing item alone (the default: the
/// prompt does not grow with the file), or the whole file up to the hole (the ablation's
/// baseline, and the only setting before static retrieval).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrefixMode {
    #[default]
    Item,
    File,
}

impl PrefixMode {
    /// The setting as `--prefix` spells it.
    pub fn name(self) -> &'static str {
        match self {
            PrefixMode::Item => "item",
            PrefixMode::File => "file",
        }
    }
}

impl std::str::FromStr for PrefixMode {
    type Err = String;
    fn from_str(s: &str) -> Result<PrefixMode, String> {
        match s {
            "item" => Ok(PrefixMode::Item),
            "file" => Ok(PrefixMode::File),
            other => Err(format!("unknown prefix `{other}` (item, file)")),
        }
    }
}

/// What the prompt is made of.
#[derive(Clone, Debug, Default)]
pub struct PromptParts {
    pub expected_type: Option<String>,
    /// Type definitions, nearest first.
    pub types: Vec<TypeDef>,
    /// Values producing a target type, best first.
    pub headers: Vec<Header>,
    /// `name : type` of the functions the enclosing item calls.
    pub calls: Vec<String>,
    /// The enclosing item up to the hole.
    pub item_before: String,
    /// The program up to the hole.
    pub before: String,
    /// The program after the hole.
    pub after: String,
}

/// A failed attempt, told back to the model in an error round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Feedback {
    pub text: String,
    pub problem: String,
}

/// A few lines of idiomatic Rex before the program: a small base model copies the shapes
/// it has just seen (a lambda where a function is expected, a record update).
const PRIMER: &str = "let double : i32 -> i32 = \\x -> x * 2 in
let is_small : i32 -> bool = \\n -> n < 10 in
let names : List string = map (\\p -> p.name) people in
let older : Person = { p with { age = p.age + 1 } } in
let label : string = if ok then \"yes\" else \"no\" in";

/// Definitions of headers shown as code, at most, and how far below the best header's score
/// a header may be for its definition to be shown.
const MAX_DEFINITIONS: usize = 3;
const DEFINITION_SCORE_STEP: i32 = 10;

/// Lines of the text after the hole shown to the model.
const AFTER_LINES: usize = 6;

/// One part of the prompt: a line (or lines) of the context comment, or a section of text.
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    /// What it is, for the statistics (`type Model`, `header init`, `item`).
    pub label: String,
    /// Which block it belongs to; a block's heading is written before its first kept piece.
    pub block: Block,
    pub text: String,
    /// None: always kept. Otherwise dropped before pieces of a higher score.
    pub score: Option<i32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    Primer,
    Types,
    Headers,
    Calls,
    Hole,
    Feedback,
    After,
    /// Short definitions of the best headers, as code before the item.
    Definitions,
    Prefix,
}

impl Block {
    fn heading(self) -> Option<&'static str> {
        match self {
            Block::Types => Some("Types:"),
            Block::Headers => Some("Values that produce it or a part of it:"),
            Block::Calls => Some("Functions the code around the hole uses:"),
            Block::Feedback => Some("These fills were tried and are wrong:"),
            Block::After => Some("The program goes on after the hole with:"),
            Block::Primer | Block::Hole | Block::Definitions | Block::Prefix => None,
        }
    }

    /// Inside the context comment (indented under its heading when it has one).
    fn in_comment(self) -> bool {
        !matches!(self, Block::Primer | Block::Definitions | Block::Prefix)
    }
}

/// The prompt's pieces, in order, for a context level, a prefix and the feedback so far.
pub(crate) fn pieces(
    parts: &PromptParts,
    level: ContextLevel,
    prefix: PrefixMode,
    feedback: &[Feedback],
) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let mut add = |label: String, block: Block, text: String, score: Option<i32>| {
        out.push(Piece {
            label,
            block,
            text,
            score,
        })
    };
    if level != ContextLevel::None {
        add("primer".into(), Block::Primer, PRIMER.into(), Some(10));
    }
    if matches!(level, ContextLevel::Types | ContextLevel::TypesHeaders) {
        for t in &parts.types {
            let text = match &t.module {
                Some(m) => format!("(from {m}, written {} here)\n{}", t.name, t.source),
                None => t.source.clone(),
            };
            let score = 90 - 10 * t.depth.min(5) as i32;
            add(format!("type {}", t.name), Block::Types, text, Some(score));
        }
    }
    if level == ContextLevel::TypesHeaders {
        for h in &parts.headers {
            let score = 30 + h.score / 20;
            add(
                format!("header {}", h.name),
                Block::Headers,
                h.signature.clone(),
                Some(score),
            );
        }
        for (i, c) in parts.calls.iter().enumerate() {
            let name = c.split(" : ").next().unwrap_or(c);
            add(
                format!("calls {name}"),
                Block::Calls,
                c.clone(),
                Some(28 - i as i32),
            );
        }
    }
    if level != ContextLevel::None {
        if let Some(t) = &parts.expected_type {
            add(
                "expected type".into(),
                Block::Hole,
                format!("The hole `?` below must be filled with an expression of type {t}."),
                None,
            );
        }
    }
    for (i, f) in feedback.iter().enumerate() {
        // The latest attempts tell the most; all of them fit in every budget but the
        // smallest.
        add(
            "feedback".into(),
            Block::Feedback,
            format!("{}  -- {}", f.text, f.problem),
            Some(60 + i as i32),
        );
    }
    let after: Vec<&str> = parts
        .after
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .take(AFTER_LINES)
        .collect();
    let after = after.join("\n");
    if !after.trim().is_empty() {
        add(
            "after".into(),
            Block::After,
            after.trim_end().to_string(),
            Some(20),
        );
    }
    if level == ContextLevel::TypesHeaders && prefix == PrefixMode::Item {
        // The file's own short definitions of the best headers (those within a step of
        // the best score), as the code before the item: what the whole file would show of
        // them, without the rest. Bodies of the lesser ones would only teach the model
        // their literals. Dropped before their header lines.
        let best = parts.headers.first().map_or(0, |h| h.score);
        let near_best = parts
            .headers
            .iter()
            .filter(|h| h.score + DEFINITION_SCORE_STEP >= best)
            .take(MAX_DEFINITIONS);
        for h in near_best {
            if let Some(d) = &h.definition {
                let score = 29 + h.score / 20;
                add(
                    format!("definition {}", h.name),
                    Block::Definitions,
                    d.clone(),
                    Some(score),
                );
            }
        }
    }
    let (label, text) = match prefix {
        PrefixMode::Item => ("item", &parts.item_before),
        PrefixMode::File => ("file", &parts.before),
    };
    add(label.into(), Block::Prefix, text.clone(), None);
    out
}

/// The text of the pieces that are kept.
pub(crate) fn render(pieces: &[Piece], keep: &[bool]) -> String {
    let kept = || pieces.iter().zip(keep).filter(|(_, k)| **k).map(|(p, _)| p);
    let mut out = String::new();
    if let Some(primer) = kept().find(|p| p.block == Block::Primer) {
        out.push_str("{- Examples of Rex:\n");
        out.push_str(&primer.text);
        out.push_str("\n-}\n");
    }
    let mut notes: Vec<String> = Vec::new();
    let mut block = None;
    for p in kept().filter(|p| p.block.in_comment()) {
        if block != Some(p.block) {
            block = Some(p.block);
            notes.extend(p.block.heading().map(str::to_string));
        }
        match p.block.heading() {
            Some(_) => notes.push(indent(&p.text)),
            None => notes.push(p.text.clone()),
        }
    }
    if !notes.is_empty() {
        out.push_str("{- ");
        out.push_str(&sanitise(&notes.join("\n")));
        out.push_str("\n-}\n");
    }
    for d in kept().filter(|p| p.block == Block::Definitions) {
        out.push_str(&d.text);
        out.push('\n');
    }
    if let Some(prefix) = kept().find(|p| p.block == Block::Prefix) {
        out.push_str(&prefix.text);
    }
    out
}

/// The prompt packed under `budget`: parts dropped whole, lowest score first, until it fits.
pub fn packed(
    parts: &PromptParts,
    level: ContextLevel,
    prefix: PrefixMode,
    feedback: &[Feedback],
    budget: &PromptBudget,
) -> Result<Packed, PromptTooLong> {
    budget::pack(&pieces(parts, level, prefix, feedback), budget)
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Text inside the context comment must not close it early.
fn sanitise(s: &str) -> String {
    s.replace("-}", "- }")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts() -> PromptParts {
        PromptParts {
            expected_type: Some("Result string string".into()),
            types: vec![
                TypeDef {
                    name: "Reading".into(),
                    module: None,
                    source: "type Reading = Reading { raw: string }".into(),
                    depth: 0,
                },
                TypeDef {
                    name: "S.Unit".into(),
                    module: Some("sensors.rex".into()),
                    source: "pub type Unit = Ph | Mv".into(),
                    depth: 1,
                },
            ],
            headers: vec![Header {
                name: "qc_label_from_sensor".into(),
                signature: "qc_label_from_sensor : string -> Result string string".into(),
                module: None,
                score: 200,
                definition: Some(
                    "fn qc_label_from_sensor : string -> Result string string = \\raw -> Ok raw"
                        .into(),
                ),
            }],
            calls: vec!["parse_ph : string -> Result f32 string".into()],
            item_before: "let qc_label : Result string string = ".into(),
            before: "fn parse_ph : string -> Result f32 string = \\raw -> Err raw\n\n\
                     let qc_label : Result string string = "
                .into(),
            after: " in\nqc_label\n".into(),
        }
    }

    /// The whole prompt, nothing dropped.
    fn prompt(
        parts: &PromptParts,
        level: ContextLevel,
        prefix: PrefixMode,
        feedback: &[Feedback],
    ) -> String {
        let pieces = pieces(parts, level, prefix, feedback);
        render(&pieces, &vec![true; pieces.len()])
    }

    fn all(level: ContextLevel) -> String {
        prompt(&parts(), level, PrefixMode::Item, &[])
    }

    /// Counts words: a tokenizer of sorts, enough to test the packing.
    fn words() -> TokenCounter {
        TokenCounter::new(|t| t.split_whitespace().count())
    }

    #[test]
    fn the_prompt_ends_where_the_fill_begins() {
        let p = all(ContextLevel::TypesHeaders);
        assert!(p.ends_with("= "), "{p}");
        insta::assert_snapshot!(p);
    }

    #[test]
    fn the_prefix_is_the_item_or_the_file() {
        let item = all(ContextLevel::None);
        assert!(!item.contains("fn parse_ph"), "{item}");
        let file = prompt(&parts(), ContextLevel::None, PrefixMode::File, &[]);
        assert!(file.contains("fn parse_ph"), "{file}");
        assert!(file.ends_with("let qc_label : Result string string = "));
    }

    #[test]
    fn context_levels_drop_headers_then_types() {
        let none = all(ContextLevel::None);
        assert!(!none.contains("Types:") && !none.contains("qc_label_from_sensor :"));
        let types = all(ContextLevel::Types);
        assert!(types.contains("type Reading") && !types.contains("qc_label_from_sensor :"));
        assert!(!types.contains("parse_ph :"), "{types}");
        let expected = all(ContextLevel::ExpectedType);
        assert!(
            expected.contains("of type Result string string"),
            "{expected}"
        );
        assert!(!expected.contains("type Reading") && !expected.contains("qc_label_from_sensor :"));
        assert!(!none.contains("of type Result string string"), "{none}");
    }

    #[test]
    fn an_imported_type_says_where_it_is_from_and_how_it_is_written() {
        let p = all(ContextLevel::Types);
        assert!(
            p.contains("(from sensors.rex, written S.Unit here)\n  pub type Unit"),
            "{p}"
        );
    }

    #[test]
    fn packing_drops_whole_parts_lowest_score_first() {
        let full = packed(
            &parts(),
            ContextLevel::TypesHeaders,
            PrefixMode::Item,
            &[],
            &PromptBudget {
                tokens: 10_000,
                counter: words(),
            },
        )
        .expect("fits");
        assert!(full.dropped.is_empty());
        assert_eq!(full.text, all(ContextLevel::TypesHeaders));
        assert_eq!(
            full.parts,
            [
                "primer",
                "type Reading",
                "type S.Unit",
                "header qc_label_from_sensor",
                "calls parse_ph",
                "expected type",
                "after",
                "definition qc_label_from_sensor",
                "item"
            ]
        );
        // Lower budgets drop more, always in the order of the scores (primer 10, the text
        // after the hole 20, the call 28, the definition 39, the header 40, the types 80
        // and 90), never cutting a part, and always keep the hole's type and the item.
        let order = [
            "primer",
            "after",
            "calls parse_ph",
            "definition qc_label_from_sensor",
            "header qc_label_from_sensor",
            "type S.Unit",
            "type Reading",
        ];
        let mut most = 0;
        for tokens in (1..full.tokens).rev() {
            let budget = PromptBudget {
                tokens,
                counter: words(),
            };
            let Ok(p) = packed(
                &parts(),
                ContextLevel::TypesHeaders,
                PrefixMode::Item,
                &[],
                &budget,
            ) else {
                break;
            };
            assert!(p.tokens <= tokens);
            assert_eq!(p.dropped, order[..p.dropped.len()], "at {tokens}");
            assert!(p.text.contains("of type Result string string"));
            assert!(p.text.ends_with("let qc_label : Result string string = "));
            most = most.max(p.dropped.len());
        }
        assert_eq!(most, order.len());
    }

    #[test]
    fn a_prefix_over_the_budget_is_refused_with_the_figures() {
        let err = packed(
            &parts(),
            ContextLevel::TypesHeaders,
            PrefixMode::File,
            &[],
            &PromptBudget {
                tokens: 5,
                counter: words(),
            },
        )
        .expect_err("the file alone is longer");
        assert_eq!(err.budget, 5);
        assert!(err.needed > 5, "{err:?}");
    }

    #[test]
    fn context_levels_read_back_their_names() {
        for level in ContextLevel::ALL {
            assert_eq!(level.name().parse::<ContextLevel>(), Ok(level));
        }
        assert!("type".parse::<ContextLevel>().is_err());
        for prefix in [PrefixMode::Item, PrefixMode::File] {
            assert_eq!(prefix.name().parse::<PrefixMode>(), Ok(prefix));
        }
    }

    #[test]
    fn feedback_cannot_close_the_comment() {
        let fb = [Feedback {
            text: "{- x -}".into(),
            problem: "bad".into(),
        }];
        let p = prompt(&parts(), ContextLevel::Types, PrefixMode::Item, &fb);
        // The primer's comment and the context's comment close; the feedback does not.
        assert_eq!(p.matches("-}").count(), 2, "{p}");
        assert!(p.contains("{- x - }"), "{p}");
    }
}
