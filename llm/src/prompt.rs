//! The prompt for a base model: plain Rex text that ends where the fill begins. The static
//! context (the hole's type, the definitions of the types around it, a few functions that
//! produce it) and the feedback of failed attempts go first, as a Rex comment; then the
//! text after the hole, also as a comment (a base model cannot fill in the middle); then
//! the program up to the hole. Type definitions help a model most, then headers (the Hazel
//! paper's ablation), so the context level drops headers first, then the type definitions,
//! then the hole's type.

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

/// What the prompt is made of.
#[derive(Clone, Debug, Default)]
pub struct PromptParts {
    pub expected_type: Option<String>,
    /// Full `type` declarations.
    pub relevant_types: Vec<String>,
    /// `name : type` lines.
    pub relevant_headers: Vec<String>,
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

/// Lines of the text after the hole shown to the model.
const AFTER_LINES: usize = 6;

/// The prompt text.
pub fn prompt(parts: &PromptParts, level: ContextLevel, feedback: &[Feedback]) -> String {
    let mut notes: Vec<String> = Vec::new();
    if level != ContextLevel::None {
        if let Some(t) = &parts.expected_type {
            notes.push(format!(
                "The hole `?` below must be filled with an expression of type {t}."
            ));
        }
        if level != ContextLevel::ExpectedType && !parts.relevant_types.is_empty() {
            notes.push("Types:".to_string());
            notes.extend(parts.relevant_types.iter().map(|t| indent(t)));
        }
    }
    if level == ContextLevel::TypesHeaders && !parts.relevant_headers.is_empty() {
        notes.push("Functions that can produce it:".to_string());
        notes.extend(parts.relevant_headers.iter().map(|h| indent(h)));
    }
    if !feedback.is_empty() {
        notes.push("These fills were tried and are wrong:".to_string());
        for f in feedback {
            notes.push(indent(&format!("{}  -- {}", f.text, f.problem)));
        }
    }
    let after: Vec<&str> = parts.after.lines().take(AFTER_LINES).collect();
    let after = after.join("\n");
    if !after.trim().is_empty() {
        notes.push("The program goes on after the hole with:".to_string());
        notes.push(indent(after.trim_end()));
    }
    let mut out = String::new();
    if level != ContextLevel::None {
        out.push_str("{- Examples of Rex:\n");
        out.push_str(PRIMER);
        out.push_str("\n-}\n");
    }
    if !notes.is_empty() {
        out.push_str("{- ");
        out.push_str(&sanitise(&notes.join("\n")));
        out.push_str("\n-}\n");
    }
    out.push_str(&parts.before);
    out
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
            relevant_types: vec!["type Reading = Reading { raw: string }".into()],
            relevant_headers: vec!["qc_label_from_sensor : string -> Result string string".into()],
            before: "let qc_label : Result string string = ".into(),
            after: " in\nqc_label\n".into(),
        }
    }

    #[test]
    fn the_prompt_ends_where_the_fill_begins() {
        let p = prompt(&parts(), ContextLevel::TypesHeaders, &[]);
        assert!(p.ends_with("= "), "{p}");
        insta::assert_snapshot!(p);
    }

    #[test]
    fn context_levels_drop_headers_then_types() {
        let none = prompt(&parts(), ContextLevel::None, &[]);
        assert!(!none.contains("Types:") && !none.contains("qc_label_from_sensor :"));
        let types = prompt(&parts(), ContextLevel::Types, &[]);
        assert!(types.contains("type Reading") && !types.contains("qc_label_from_sensor :"));
        let expected = prompt(&parts(), ContextLevel::ExpectedType, &[]);
        assert!(
            expected.contains("of type Result string string"),
            "{expected}"
        );
        assert!(!expected.contains("type Reading") && !expected.contains("qc_label_from_sensor :"));
        assert!(!none.contains("of type Result string string"), "{none}");
    }

    #[test]
    fn context_levels_read_back_their_names() {
        for level in ContextLevel::ALL {
            assert_eq!(level.name().parse::<ContextLevel>(), Ok(level));
        }
        assert!("type".parse::<ContextLevel>().is_err());
    }

    #[test]
    fn feedback_cannot_close_the_comment() {
        let fb = [Feedback {
            text: "{- x -}".into(),
            problem: "bad".into(),
        }];
        let p = prompt(&parts(), ContextLevel::Types, &fb);
        // The primer's comment and the context's comment close; the feedback does not.
        assert_eq!(p.matches("-}").count(), 2, "{p}");
        assert!(p.contains("{- x - }"), "{p}");
    }
}
