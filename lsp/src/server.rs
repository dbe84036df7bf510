//! The language server: LSP requests and notifications mapped onto `rex-ide` over one
//! shared `Workspace`. Each request locks the workspace, computes its answer synchronously
//! (analysis is fast, and salsa needs exclusive access to apply edits), and unlocks before
//! anything is sent to the client. A fault inside an analysis becomes a JSON-RPC error,
//! never a dead server.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use rex_compiler::Span;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::capabilities::capabilities;
use crate::commands;
use crate::convert;
#[cfg(feature = "model")]
use crate::model_fill::{self, CancelOnDrop, ModelService, ModelSettings, FILL_HOLE_WITH_MODEL};
use crate::modules::include_roots;
use crate::workspace::{Document, Workspace};

pub struct Backend {
    client: Client,
    workspace: Mutex<Workspace>,
    /// Whether the client lets the server ask to be told about changed files.
    can_watch_files: AtomicBool,
    /// What was published last for each module file that is not open, by path.
    published_modules: Mutex<BTreeMap<String, Vec<Diagnostic>>>,
    /// Hole filling with the embedded model: the settings of the initialization options
    /// (their presence offers the code action), and the worker once started.
    #[cfg(feature = "model")]
    model_configured: AtomicBool,
    #[cfg(feature = "model")]
    model: Mutex<ModelService>,
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            client,
            workspace: Mutex::new(Workspace::new()),
            can_watch_files: AtomicBool::new(false),
            published_modules: Mutex::new(BTreeMap::new()),
            #[cfg(feature = "model")]
            model_configured: AtomicBool::new(false),
            #[cfg(feature = "model")]
            model: Mutex::new(ModelService::new(ModelSettings::default())),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Workspace> {
        // A panic while locked is caught below; the workspace itself stays consistent
        // (inputs are only replaced whole), so a poisoned lock is still usable.
        self.workspace.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on an open document; `Ok(None)` when the document is not open.
    fn on_document<T>(
        &self,
        uri: &Uri,
        f: impl FnOnce(&Workspace, &Document) -> Option<T>,
    ) -> Result<Option<T>> {
        let ws = self.lock();
        let Some(doc) = ws.document(uri.as_str()) else {
            return Ok(None);
        };
        catch_unwind(AssertUnwindSafe(|| f(&ws, doc))).map_err(|_| internal_error())
    }

    /// Publishes the diagnostics of each document, in order, then those of the module
    /// files the open documents import.
    async fn publish_all(&self, uris: Vec<String>) {
        for uri in uris {
            if let Ok(uri) = uri.parse::<Uri>() {
                self.publish(uri).await;
            }
        }
        self.publish_modules().await;
    }

    /// Publishes the diagnostics of every module file the open documents import and that
    /// is not open itself, where they changed since last published, and clears those of
    /// module files no longer in that set.
    async fn publish_modules(&self) {
        let (reports, open) = {
            let ws = self.lock();
            let reports = catch_unwind(AssertUnwindSafe(|| {
                ws.module_reports()
                    .into_iter()
                    .map(|(path, (file, ds))| {
                        (path, convert::module_diagnostics(file.text(&ws.db), &ds))
                    })
                    .collect::<BTreeMap<String, Vec<Diagnostic>>>()
            }));
            (reports.unwrap_or_default(), ws.open_paths())
        };
        let previous = std::mem::replace(
            &mut *self
                .published_modules
                .lock()
                .unwrap_or_else(|e| e.into_inner()),
            reports.clone(),
        );
        // An opened module is published as a document now: not cleared here.
        let gone = previous
            .keys()
            .filter(|p| !reports.contains_key(*p) && !open.contains(*p));
        for path in gone {
            if let Some(uri) = Uri::from_file_path(path) {
                self.client.publish_diagnostics(uri, Vec::new(), None).await;
            }
        }
        for (path, diags) in reports {
            if previous.get(&path) == Some(&diags) {
                continue;
            }
            if let Some(uri) = Uri::from_file_path(&path) {
                self.client.publish_diagnostics(uri, diags, None).await;
            }
        }
    }

    /// Publishes the diagnostics of a document as it is now.
    async fn publish(&self, uri: Uri) {
        let computed = {
            let ws = self.lock();
            ws.document(uri.as_str()).map(|doc| {
                let diags = catch_unwind(AssertUnwindSafe(|| convert::diagnostics(&ws, doc)));
                (diags.unwrap_or_default(), doc.version)
            })
        };
        if let Some((diags, version)) = computed {
            self.client
                .publish_diagnostics(uri, diags, Some(version))
                .await;
        }
    }
}

fn internal_error() -> Error {
    let mut e = Error::internal_error();
    e.message = "internal error in the Rex analysis (this is a bug)".into();
    e
}

fn offset_in(ws: &Workspace, doc: &Document, pos: Position) -> usize {
    ws.offset(doc, pos)
}

/// A span in a module file the server loaded (not an open document).
fn module_location(
    db: &rex_compiler::db::Database,
    file: rex_compiler::db::SourceFile,
    span: Span,
) -> Option<Location> {
    let uri = Uri::from_file_path(file.path(db))?;
    let text = file.text(db);
    let range = convert::text_range(&rex_compiler::LineIndex::new(text), text, span);
    Some(Location { uri, range })
}

fn location(ws: &Workspace, doc: &Document, uri: &Uri, span: Span) -> Location {
    Location {
        uri: uri.clone(),
        range: ws.range(doc, span),
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let watch = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        self.can_watch_files.store(watch, Ordering::Relaxed);
        #[cfg(feature = "model")]
        if let Some(settings) =
            model_fill::settings_from_init(params.initialization_options.as_ref())
        {
            self.model_configured.store(true, Ordering::Relaxed);
            *self.model.lock().unwrap_or_else(|e| e.into_inner()) = ModelService::new(settings);
        }
        // No document is open before `initialize`: there is nothing to republish yet.
        let _ = self.lock().set_include_roots(include_roots(&params));
        Ok(InitializeResult {
            capabilities: capabilities(),
            server_info: Some(ServerInfo {
                name: "rex".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if !self.can_watch_files.load(Ordering::Relaxed) {
            return;
        }
        // Module files edited outside the editor (or created, or deleted) are loaded again.
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![FileSystemWatcher {
                glob_pattern: GlobPattern::String("**/*.rex".to_string()),
                kind: None,
            }],
        };
        let registration = Registration {
            id: "rex-module-files".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        let _ = self.client.register_capability(vec![registration]).await;
    }

    async fn did_change_watched_files(&self, _: DidChangeWatchedFilesParams) {
        let republish = self.lock().files_changed();
        self.publish_all(republish).await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let republish = self.lock().open(doc.uri.as_str(), doc.text, doc.version);
        self.publish_all(republish).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let doc = params.text_document;
        let republish = self
            .lock()
            .change(doc.uri.as_str(), doc.version, params.content_changes);
        self.publish_all(republish).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let republish = self.lock().close(uri.as_str());
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
        self.publish_all(republish).await;
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        self.on_document(&p.text_document.uri, |ws, doc| {
            let offset = offset_in(ws, doc, p.position);
            let h = rex_ide::hover::hover(&ws.db, doc.file, offset)?;
            Some(convert::hover(ws, doc, &h))
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        self.on_document(&p.text_document.uri, |ws, doc| {
            let offset = offset_in(ws, doc, p.position);
            let c = rex_ide::completion::completion(&ws.db, doc.file, offset);
            Some(convert::completions(ws, doc, c))
        })
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let p = params.text_document_position_params;
        self.on_document(&p.text_document.uri, |ws, doc| {
            let offset = offset_in(ws, doc, p.position);
            let s = rex_ide::signature_help::signature_help(&ws.db, doc.file, offset)?;
            Some(convert::signature_help(s))
        })
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let uri = p.text_document.uri;
        self.on_document(&uri, |ws, doc| {
            let offset = offset_in(ws, doc, p.position);
            let (target, span) =
                rex_ide::navigation::definition_in_program(&ws.db, doc.file, offset)?;
            let location = if target == doc.file {
                location(ws, doc, &uri, span)
            } else {
                module_location(&ws.db, target, span)?
            };
            Some(GotoDefinitionResponse::Scalar(location))
        })
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri;
        let include = params.context.include_declaration;
        self.on_document(&uri, |ws, doc| {
            let offset = offset_in(ws, doc, p.position);
            let spans = rex_ide::navigation::references(&ws.db, doc.file, offset, include);
            Some(
                spans
                    .into_iter()
                    .map(|s| location(ws, doc, &uri, s))
                    .collect(),
            )
        })
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let uri = params.text_document.uri;
        let answer = self.on_document(&uri, |ws, doc| {
            let offset = offset_in(ws, doc, params.position);
            Some(
                rex_ide::navigation::prepare_rename(&ws.db, doc.file, offset)
                    .map(|(span, name)| (ws.range(doc, span), name)),
            )
        })?;
        match answer {
            None => Ok(None),
            Some(Ok((range, placeholder))) => {
                Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
                    range,
                    placeholder,
                }))
            }
            Some(Err(e)) => Err(Error::invalid_params(e.to_string())),
        }
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri;
        let answer = self.on_document(&uri, |ws, doc| {
            let offset = offset_in(ws, doc, p.position);
            Some(
                rex_ide::navigation::rename(&ws.db, doc.file, offset, &params.new_name).map(
                    |edits| {
                        edits
                            .into_iter()
                            .map(|e| TextEdit {
                                range: ws.range(doc, e.span),
                                new_text: e.new_text,
                            })
                            .collect::<Vec<_>>()
                    },
                ),
            )
        })?;
        match answer {
            None => Ok(None),
            Some(Ok(edits)) => Ok(Some(WorkspaceEdit {
                changes: Some([(uri, edits)].into_iter().collect()),
                ..WorkspaceEdit::default()
            })),
            Some(Err(e)) => Err(Error::invalid_params(e.to_string())),
        }
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.on_document(&params.text_document.uri, |ws, doc| {
            let symbols = rex_ide::symbols::document_symbols(&ws.db, doc.file)
                .into_iter()
                .map(|s| convert::document_symbol(ws, doc, s))
                .collect();
            Some(DocumentSymbolResponse::Nested(symbols))
        })
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.on_document(&params.text_document.uri, |ws, doc| {
            let start = ws.offset(doc, params.range.start);
            let end = ws.offset(doc, params.range.end);
            let range = Span::new(start.min(end), start.max(end));
            let hints = rex_ide::inlay_hints::inlay_hints(&ws.db, doc.file, Some(range))
                .into_iter()
                .map(|h| convert::inlay_hint(ws, doc, h))
                .collect();
            Some(hints)
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let range = params.range;
        let ws = self.lock();
        #[allow(unused_mut)]
        let mut actions = commands::code_actions(&ws, &uri, range)?.unwrap_or_default();
        #[cfg(feature = "model")]
        if self.model_configured.load(Ordering::Relaxed) {
            let action = catch_unwind(AssertUnwindSafe(|| {
                model_fill::fill_action(&ws, &uri, range)
            }))
            .map_err(|_| internal_error())?;
            actions.extend(action);
        }
        Ok(Some(actions))
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        #[cfg(feature = "model")]
        if params.command == FILL_HOLE_WITH_MODEL {
            return self.fill_with_model(params).await;
        }
        let outcome = {
            let mut ws = self.lock();
            commands::execute(&mut ws, &params.command, params.arguments)?
        };
        if let Some(edit) = outcome.edit {
            // The client applies the edit and then sends the usual didChange.
            let _ = self.client.apply_edit(edit).await;
        }
        Ok(Some(outcome.result))
    }
}

#[cfg(feature = "model")]
impl Backend {
    /// `rex.fillHoleWithModel`: the worker fills the hole on a copy of the document while
    /// progress is reported; a cancelled request stops the decoding at the next token.
    async fn fill_with_model(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let request = {
            let ws = self.lock();
            model_fill::request(&ws, &params.arguments).map_err(Error::invalid_params)?
        };
        let (reply, mut replied) = tokio::sync::oneshot::channel();
        let (progress, mut reports) = tokio::sync::mpsc::unbounded_channel();
        let cancel = std::sync::Arc::new(AtomicBool::new(false));
        let _cancel_on_drop = CancelOnDrop(cancel.clone());
        let job = model_fill::Job {
            text: request.text,
            path: request.path,
            modules: request.modules,
            include_roots: request.include_roots,
            pos: request.pos,
            cancel,
            progress: Box::new(move |p| {
                let _ = progress.send(p);
            }),
            reply: Box::new(move |r| {
                let _ = reply.send(r);
            }),
        };
        self.model
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .submit(job)
            .map_err(Error::invalid_params)?;
        let bar = match params.work_done_progress_params.work_done_token {
            Some(token) => Some(
                self.client
                    .progress(token, "Filling hole with model")
                    .with_percentage(0)
                    .begin()
                    .await,
            ),
            None => None,
        };
        let result = loop {
            tokio::select! {
                r = &mut replied => break r,
                Some(p) = reports.recv() => {
                    if let Some(bar) = &bar {
                        let done = (100 * p.sample / p.samples.max(1)) as u32;
                        bar.report_with_message(format!("round {}, sample {}", p.round, p.sample + 1), done).await;
                    }
                }
            }
        };
        if let Some(bar) = bar {
            bar.finish().await;
        }
        let fills = result
            .map_err(|_| internal_error())?
            .map_err(Error::invalid_params)?;
        if request.apply {
            if let Some(edit) = model_fill::best_fill_edit(&request.uri, &fills) {
                let _ = self.client.apply_edit(edit).await;
            }
        }
        serde_json::to_value(&fills)
            .map(Some)
            .map_err(|_| internal_error())
    }
}
