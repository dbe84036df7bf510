//! The JavaScript face of [`Session`]: every result is a JSON string, so the worker passes
//! it on with one `JSON.parse` and the contract stays the serde structs of `report`.

use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::run::PLAYGROUND_GAS;
use crate::session::{Session, DOCUMENT_URI};

#[wasm_bindgen]
pub struct Playground {
    session: Session,
}

impl Default for Playground {
    fn default() -> Self {
        Playground::new()
    }
}

#[wasm_bindgen]
impl Playground {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Playground {
        Playground {
            session: Session::new(),
        }
    }

    /// Replaces the document text.
    #[wasm_bindgen(js_name = setText)]
    pub fn set_text(&mut self, text: &str) {
        self.session.set_text(text);
    }

    /// `{diagnostics, holes}` for the current text.
    pub fn analyze(&self) -> String {
        to_json(&self.session.analyze())
    }

    /// `null` or `{range, code, expectedType, notes}` at a 0-based line/UTF-16 position.
    pub fn hover(&self, line: u32, character: u32) -> String {
        to_json(&self.session.hover(line, character))
    }

    /// `{range, expectedType, items: [{label, kind, detail}], isIncomplete}`, best first.
    pub fn completion(&self, line: u32, character: u32) -> String {
        to_json(&self.session.completion(line, character))
    }

    /// Runs the program under the playground's step budget:
    /// `{ok, value, error, holes: [{name, range, env}], holesReached, steps}`.
    pub fn run(&self) -> String {
        to_json(&self.session.run(PLAYGROUND_GAS))
    }

    /// The URI that `rex.*` command arguments name the document by.
    #[wasm_bindgen(js_name = documentUri)]
    pub fn document_uri(&self) -> String {
        DOCUMENT_URI.to_string()
    }

    /// Runs a `rex.*` command with JSON arguments: `{"result": ...}` or `{"error": "..."}`.
    pub fn execute(&mut self, command: &str, args: &str) -> String {
        let outcome = serde_json::from_str(args)
            .map_err(|e| format!("the arguments are not JSON: {e}"))
            .and_then(|args| self.session.execute(command, &args));
        match outcome {
            Ok(result) => to_json(&serde_json::json!({ "result": result })),
            Err(error) => to_json(&serde_json::json!({ "error": error })),
        }
    }
}

#[wasm_bindgen]
impl Playground {
    /// Starts "Fill with model" (`{line, character, url, model, server, samples?,
    /// maxTokens?, errorRounds?}`): `{"result": {"requests": {endpoint, bodies, phase,
    /// round}}}` to send, `{"result": {"done": fills}}`, or `{"error": "..."}`.
    #[wasm_bindgen(js_name = fillStart)]
    pub fn fill_start(&mut self, args: &str) -> String {
        let outcome = serde_json::from_str(args)
            .map_err(|e| format!("the arguments are not JSON: {e}"))
            .and_then(|args| self.session.fill_start(&args));
        answer(outcome)
    }

    /// The replies to the last requests (`{replies: [{status, body} | {error}], seconds,
    /// stepSeconds}`: the time since the fill started and the time these requests took),
    /// answered as `fillStart` is.
    #[wasm_bindgen(js_name = fillFeed)]
    pub fn fill_feed(&mut self, args: &str) -> String {
        #[derive(serde::Deserialize)]
        struct Feed {
            replies: Vec<crate::model_fill::FetchReply>,
            #[serde(default)]
            seconds: f64,
            #[serde(default, rename = "stepSeconds")]
            step_seconds: f64,
        }
        let outcome = serde_json::from_str::<Feed>(args)
            .map_err(|e| format!("the replies are not JSON of the expected shape: {e}"))
            .and_then(|f| {
                self.session
                    .fill_feed(&f.replies, f.seconds, f.step_seconds)
            });
        answer(outcome)
    }

    /// Drops the fill under way.
    #[wasm_bindgen(js_name = fillCancel)]
    pub fn fill_cancel(&mut self) {
        self.session.fill_cancel();
    }
}

fn answer(outcome: Result<crate::model_fill::Next, String>) -> String {
    match outcome {
        Ok(result) => to_json(&serde_json::json!({ "result": result })),
        Err(error) => to_json(&serde_json::json!({ "error": error })),
    }
}

fn to_json(value: &impl Serialize) -> String {
    // The report types hold only strings, numbers and lists, which always serialise.
    serde_json::to_string(value).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("cannot encode the result: {e}") }).to_string()
    })
}
