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

fn to_json(value: &impl Serialize) -> String {
    // The report types hold only strings, numbers and lists, which always serialise.
    serde_json::to_string(value).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("cannot encode the result: {e}") }).to_string()
    })
}
