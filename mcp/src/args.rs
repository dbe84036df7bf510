//! The tools' arguments: one type per shape, whose JSON schema (schemars, from these
//! types and their doc comments) is what `tools/list` shows an agent. Names are camelCase
//! like the LSP contracts (`dryRun`, `maxSteps`); positions are 0-based, characters in
//! UTF-16 code units, as LSP counts them.

use rmcp::model::JsonObject;
use rmcp::schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

/// Where the program is: a file (`path`), or text given inline (`text`), or both (the
/// text stands for the file's contents; imports resolve from the path, and `write`
/// stores into it).
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Source {
    /// The Rex file, absolute or relative to the server's working directory. It is read
    /// again on every call, so edits made on disk are seen at once.
    #[serde(default)]
    pub path: Option<String>,
    /// The program's text, instead of (or over) the file's.
    #[serde(default)]
    pub text: Option<String>,
}

/// A position in the program.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct At {
    /// 0-based line.
    pub line: u32,
    /// 0-based character in the line, in UTF-16 code units (as LSP counts).
    pub character: u32,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct FileArgs {
    #[serde(flatten)]
    pub source: Source,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct PositionArgs {
    #[serde(flatten)]
    pub source: Source,
    #[serde(flatten)]
    pub at: At,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct ApplyQuickFixArgs {
    #[serde(flatten)]
    pub source: Source,
    #[serde(flatten)]
    pub at: At,
    /// The quick fix's `id`, as `semantic_loop_step` or `hole_fill_candidates` reported
    /// it at this position.
    pub id: String,
    /// Store the fixed text into `path` (default false: only return the fix's edit).
    #[serde(default)]
    pub write: bool,
}

/// How boldly bulk repair goes.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Repairs only what is written (names, arity, syntax); never fills holes.
    Conservative,
    /// Also fills holes with their best verified candidate.
    Aggressive,
}

impl Strategy {
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Conservative => "conservative",
            Strategy::Aggressive => "aggressive",
        }
    }
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(rename_all = "camelCase")]
pub struct ApplyBestArgs {
    #[serde(flatten)]
    pub source: Source,
    #[serde(flatten)]
    pub at: At,
    /// At most this many fixes, one after another (clamped to 1..=20; default 3).
    #[serde(default)]
    pub max_steps: Option<u64>,
    /// Default `conservative`.
    #[serde(default)]
    pub strategy: Option<Strategy>,
    /// Only predict: `updatedText` shows the result and nothing is written.
    #[serde(default)]
    pub dry_run: bool,
    /// Store `updatedText` into `path` (ignored for a dry run; default false).
    #[serde(default)]
    pub write: bool,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
#[serde(rename_all = "camelCase")]
pub struct RunArgs {
    #[serde(flatten)]
    pub source: Source,
    /// Evaluation steps before the run is stopped (default 60,000,000).
    #[serde(default)]
    pub gas: Option<u64>,
    /// Seconds of evaluation before the run is stopped (default 10, at most 300).
    #[serde(default)]
    pub timeout_seconds: Option<f64>,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct FillArgs {
    #[serde(flatten)]
    pub source: Source,
    #[serde(flatten)]
    pub at: At,
    /// Write the best fill over the hole in `path` (default false).
    #[serde(default)]
    pub write: bool,
}

/// The JSON schema of `T`, as `tools/list` shows it.
pub fn schema<T: JsonSchema + 'static>() -> std::sync::Arc<JsonObject> {
    rmcp::handler::server::common::schema_for_type::<T>()
}

/// `args` as a `T`: an argument the schema does not name is refused (a misspelt `dryRun`
/// must not pass for a real run), and every other mistake is named.
pub fn parse<T: DeserializeOwned + JsonSchema + 'static>(args: JsonObject) -> Result<T, String> {
    let schema = schema::<T>();
    if let Some(Value::Object(known)) = schema.get("properties") {
        if let Some(unknown) = args.keys().find(|k| !known.contains_key(*k)) {
            let mut names: Vec<&str> = known.keys().map(String::as_str).collect();
            names.sort_unstable();
            return Err(format!(
                "invalid arguments: unknown argument `{unknown}` (this tool takes {})",
                names.join(", ")
            ));
        }
    }
    serde_json::from_value(Value::Object(args)).map_err(|e| format!("invalid arguments: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(v: Value) -> JsonObject {
        match v {
            Value::Object(m) => m,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn flattened_arguments_are_read_and_named_in_the_schema() {
        let args: ApplyBestArgs = parse(object(json!({
            "path": "a.rex", "line": 3, "character": 4, "dryRun": true, "strategy": "aggressive"
        })))
        .expect("valid arguments");
        assert_eq!(args.source.path.as_deref(), Some("a.rex"));
        assert_eq!((args.at.line, args.at.character), (3, 4));
        assert!(args.dry_run && !args.write);
        let schema = schema::<ApplyBestArgs>();
        let props = schema["properties"].as_object().expect("properties");
        for key in [
            "path",
            "text",
            "line",
            "character",
            "maxSteps",
            "dryRun",
            "write",
        ] {
            assert!(props.contains_key(key), "{key} in {props:?}");
        }
    }

    #[test]
    fn mistakes_are_named() {
        let err = parse::<ApplyBestArgs>(object(
            json!({"path": "a", "line": 1, "character": 2, "dry_run": true}),
        ))
        .expect_err("unknown argument");
        assert!(err.contains("unknown argument `dry_run`"), "{err}");
        let err = parse::<PositionArgs>(object(json!({"path": "a", "line": -1, "character": 0})))
            .expect_err("negative line");
        assert!(err.starts_with("invalid arguments: "), "{err}");
        let err = parse::<PositionArgs>(object(json!({"path": "a", "line": 1})))
            .expect_err("no character");
        assert!(err.contains("character"), "{err}");
    }
}
