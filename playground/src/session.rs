//! One playground document over one salsa database. Each edit replaces the text input, and
//! salsa re-runs only the queries whose inputs changed.

use rex_compiler::db::{file_holes, Database, SourceFile};
use rex_compiler::Diagnostic;
use rex_ide::completion::{completion, CompletionKind};
use rex_ide::{commands, hover};
use salsa::Setter;
use serde_json::Value;

use crate::model_fill::{FetchReply, FillJob, Next, StartArgs};
use crate::positions::Positions;
use crate::report::{
    Analysis, Completions, Hover, JsonBinding, JsonCompletionItem, JsonDiagnostic, JsonHole,
};
use crate::run::{self, RunReport};

/// The document's name in diagnostics and in `rex.*` command URIs.
pub const DOCUMENT_URI: &str = "file:///playground.rex";

pub struct Session {
    db: Database,
    file: SourceFile,
    positions: Positions,
    /// The "Fill with model" under way, if any.
    fill: Option<FillJob>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        let db = Database::new();
        let file = db.add_file(DOCUMENT_URI, String::new());
        Session {
            db,
            file,
            positions: Positions::new(""),
            fill: None,
        }
    }

    pub fn text(&self) -> &str {
        self.positions.text()
    }

    /// Replaces the document's text; unchanged text keeps every cached result.
    pub fn set_text(&mut self, text: &str) {
        if text == self.text() {
            return;
        }
        self.file.set_text(&mut self.db).to(text.to_string());
        self.positions = Positions::new(text);
    }

    pub fn analyze(&self) -> Analysis {
        Analysis {
            diagnostics: self
                .db
                .diagnostics(self.file)
                .iter()
                .map(|d| self.diagnostic(d))
                .collect(),
            holes: file_holes(&self.db, self.db.prelude(), self.file)
                .iter()
                .map(|h| JsonHole {
                    name: match &h.name {
                        Some(name) => format!("?{name}"),
                        None => "?".to_string(),
                    },
                    range: self.positions.range(h.span),
                    expected_type: h.expected_type.clone(),
                    context: h
                        .context
                        .iter()
                        .map(|(name, ty)| JsonBinding {
                            name: name.clone(),
                            ty: ty.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// What is at a position and its type, if anything.
    pub fn hover(&self, line: u32, character: u32) -> Option<Hover> {
        let offset = self.positions.offset(line, character);
        let found = hover::hover(&self.db, self.file, offset)?;
        Some(Hover {
            range: self.positions.range(found.span),
            code: found.code,
            expected_type: found.expected_type,
            notes: found.notes,
        })
    }

    /// Completions at a position, ranked by how well their types fit there.
    pub fn completion(&self, line: u32, character: u32) -> Completions {
        let offset = self.positions.offset(line, character);
        let found = completion(&self.db, self.file, offset);
        Completions {
            range: self.positions.range(found.span),
            expected_type: found.expected_type,
            items: found
                .items
                .into_iter()
                .map(|item| JsonCompletionItem {
                    label: item.label,
                    kind: kind_name(item.kind),
                    detail: item.detail,
                })
                .collect(),
            is_incomplete: found.is_incomplete,
        }
    }

    /// Runs the program with a step budget (errors do not stop it: marked parts and holes
    /// evaluate to indeterminate values).
    pub fn run(&self, gas: u64) -> RunReport {
        run::run(&self.db, self.file, gas)
    }

    /// Runs one of the `rex.*` semantic-assist commands (reference/LLMS.md: expected types,
    /// candidates, the semantic loop step, quick fixes, bulk repair) on the document. The
    /// arguments name the document by [`DOCUMENT_URI`]; results are the contract's JSON.
    /// Commands never change the text: the page applies the edits they return.
    pub fn execute(&mut self, command: &str, args: &Value) -> Result<Value, String> {
        let uri = commands::document_uri(args).map_err(|e| e.to_string())?;
        if uri != DOCUMENT_URI {
            return Err(format!(
                "unknown document `{uri}`: the playground's document is `{DOCUMENT_URI}`"
            ));
        }
        commands::execute(&mut self.db, self.file, command, args).map_err(|e| e.to_string())
    }

    /// Starts filling the hole at a position with a model behind a server (one fill at a
    /// time: a new one replaces the last); the first requests to send.
    pub fn fill_start(&mut self, args: &Value) -> Result<Next, String> {
        let args: StartArgs = serde_json::from_value(args.clone())
            .map_err(|e| format!("bad arguments for a model fill: {e}"))?;
        self.fill = None;
        let (job, next) = FillJob::start(self.text(), &args)?;
        if !matches!(next, Next::Done(_)) {
            self.fill = Some(job);
        }
        Ok(next)
    }

    /// The replies to the fill's last requests; the next requests, or the result.
    pub fn fill_feed(
        &mut self,
        replies: &[FetchReply],
        seconds: f64,
        step_seconds: f64,
    ) -> Result<Next, String> {
        let job = self.fill.as_mut().ok_or("no model fill is under way")?;
        let next = job.feed(replies, seconds, step_seconds);
        if !matches!(next, Ok(Next::Requests { .. })) {
            self.fill = None;
        }
        next
    }

    /// Drops the fill under way (Stop).
    pub fn fill_cancel(&mut self) {
        self.fill = None;
    }

    fn diagnostic(&self, d: &Diagnostic) -> JsonDiagnostic {
        JsonDiagnostic {
            code: d.code.as_str(),
            severity: d.severity.as_str(),
            category: d.category.as_str(),
            message: d.message.clone(),
            range: self.positions.range(d.span),
            notes: d.notes.clone(),
        }
    }
}

fn kind_name(kind: CompletionKind) -> &'static str {
    match kind {
        CompletionKind::Local => "local",
        CompletionKind::Function => "function",
        CompletionKind::Method => "method",
        CompletionKind::Constructor => "constructor",
        CompletionKind::Field => "field",
        CompletionKind::Keyword => "keyword",
    }
}
