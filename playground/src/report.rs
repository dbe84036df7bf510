//! The JSON the page receives. Field names are camelCase and positions are 0-based
//! line/UTF-16 character pairs, as in the CLI's `--json` report and the LSP.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JsonPosition {
    pub line: u32,
    pub character: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JsonRange {
    pub start: JsonPosition,
    pub end: JsonPosition,
}

#[derive(Clone, Debug, Serialize)]
pub struct JsonDiagnostic {
    pub code: &'static str,
    pub severity: &'static str,
    pub category: &'static str,
    pub message: String,
    pub range: JsonRange,
    pub notes: Vec<String>,
}

/// A binding in scope at a hole, innermost first.
#[derive(Clone, Debug, Serialize)]
pub struct JsonBinding {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonHole {
    /// `?` for an anonymous hole, `?name` for a named one, as written.
    pub name: String,
    pub range: JsonRange,
    pub expected_type: String,
    pub context: Vec<JsonBinding>,
}

/// Everything the page redraws after an edit: one worker round trip per keystroke.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub diagnostics: Vec<JsonDiagnostic>,
    pub holes: Vec<JsonHole>,
}

/// What is under the pointer (rex-ide's hover): `code` is one line of Rex (`name : type`
/// or a type), `notes` further lines such as a hole's context.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hover {
    pub range: JsonRange,
    pub code: String,
    pub expected_type: Option<String>,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonCompletionItem {
    pub label: String,
    /// `local`, `function`, `method`, `constructor`, `field` or `keyword`.
    pub kind: &'static str,
    pub detail: Option<String>,
}

/// Completions at a position (rex-ide's), best first; `range` is the text a choice replaces.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Completions {
    pub range: JsonRange,
    pub expected_type: Option<String>,
    pub items: Vec<JsonCompletionItem>,
    pub is_incomplete: bool,
}
