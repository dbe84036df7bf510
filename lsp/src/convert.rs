//! Conversions from `rex-ide` results (byte spans, plain structs) to LSP types.

use rex_compiler::{Diagnostic, LineIndex, Severity, Span};
use rex_ide::completion::{CompletionKind, Completions};
use rex_ide::hover::Hover;
use rex_ide::inlay_hints::InlayHint;
use rex_ide::signature_help::SignatureHelp;
use rex_ide::symbols::{DocumentSymbol, SymbolKind};
use tower_lsp_server::ls_types as lsp;

use crate::workspace::{Document, Workspace};

/// At most this many diagnostics are published for one document.
pub const MAX_PUBLISHED_DIAGNOSTICS: usize = 1000;

pub fn diagnostics(ws: &Workspace, doc: &Document) -> Vec<lsp::Diagnostic> {
    ws.diagnostics(doc)
        .iter()
        .take(MAX_PUBLISHED_DIAGNOSTICS)
        .map(|d| diagnostic(ws, doc, d))
        .collect()
}

/// The diagnostics of a module file that is not open (`text` is what was checked).
pub fn module_diagnostics(text: &str, diagnostics: &[Diagnostic]) -> Vec<lsp::Diagnostic> {
    let index = LineIndex::new(text);
    diagnostics
        .iter()
        .take(MAX_PUBLISHED_DIAGNOSTICS)
        .map(|d| lsp_diagnostic(text_range(&index, text, d.span), d))
        .collect()
}

/// A span of a file that is not an open document, with that file's line index.
pub fn text_range(index: &LineIndex, text: &str, span: Span) -> lsp::Range {
    let position = |offset: u32| {
        let p = index.position(text, offset as usize);
        lsp::Position {
            line: p.line,
            character: p.character,
        }
    };
    lsp::Range {
        start: position(span.start),
        end: position(span.end),
    }
}

fn diagnostic(ws: &Workspace, doc: &Document, d: &Diagnostic) -> lsp::Diagnostic {
    lsp_diagnostic(ws.range(doc, d.span), d)
}

fn lsp_diagnostic(range: lsp::Range, d: &Diagnostic) -> lsp::Diagnostic {
    let severity = match d.severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
    };
    let mut message = d.message.clone();
    for note in &d.notes {
        message.push('\n');
        message.push_str(note);
    }
    lsp::Diagnostic {
        range,
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code.as_str().to_string())),
        source: Some("rex".to_string()),
        message,
        ..lsp::Diagnostic::default()
    }
}

pub fn hover(ws: &Workspace, doc: &Document, h: &Hover) -> lsp::Hover {
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: h.markdown(),
        }),
        range: Some(ws.range(doc, h.span)),
    }
}

pub fn completions(ws: &Workspace, doc: &Document, c: Completions) -> lsp::CompletionResponse {
    let range = ws.range(doc, c.span);
    let items = c
        .items
        .into_iter()
        .map(|item| lsp::CompletionItem {
            kind: Some(match item.kind {
                CompletionKind::Local => lsp::CompletionItemKind::VARIABLE,
                CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
                CompletionKind::Method => lsp::CompletionItemKind::METHOD,
                CompletionKind::Constructor => lsp::CompletionItemKind::CONSTRUCTOR,
                CompletionKind::Field => lsp::CompletionItemKind::FIELD,
                CompletionKind::Keyword => lsp::CompletionItemKind::KEYWORD,
            }),
            detail: item.detail,
            sort_text: Some(item.sort_text),
            text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                range,
                new_text: item.label.clone(),
            })),
            label: item.label,
            ..lsp::CompletionItem::default()
        })
        .collect();
    lsp::CompletionResponse::List(lsp::CompletionList {
        is_incomplete: c.is_incomplete,
        items,
    })
}

pub fn signature_help(s: SignatureHelp) -> lsp::SignatureHelp {
    let parameters = s
        .parameters
        .iter()
        .map(|(a, b)| lsp::ParameterInformation {
            label: lsp::ParameterLabel::LabelOffsets([
                utf16_len(&s.label[..*a]),
                utf16_len(&s.label[..*b]),
            ]),
            documentation: None,
        })
        .collect();
    lsp::SignatureHelp {
        signatures: vec![lsp::SignatureInformation {
            label: s.label.clone(),
            documentation: None,
            parameters: Some(parameters),
            active_parameter: Some(s.active_parameter as u32),
        }],
        active_signature: Some(0),
        active_parameter: Some(s.active_parameter as u32),
    }
}

fn utf16_len(s: &str) -> u32 {
    s.encode_utf16().count() as u32
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
pub fn document_symbol(ws: &Workspace, doc: &Document, s: DocumentSymbol) -> lsp::DocumentSymbol {
    let children: Vec<lsp::DocumentSymbol> = s
        .children
        .into_iter()
        .map(|c| document_symbol(ws, doc, c))
        .collect();
    lsp::DocumentSymbol {
        name: s.name,
        detail: s.detail,
        kind: match s.kind {
            SymbolKind::Function => lsp::SymbolKind::FUNCTION,
            SymbolKind::Type => lsp::SymbolKind::ENUM,
            SymbolKind::Constructor => lsp::SymbolKind::ENUM_MEMBER,
            SymbolKind::Class => lsp::SymbolKind::INTERFACE,
            SymbolKind::Method => lsp::SymbolKind::METHOD,
            SymbolKind::Instance => lsp::SymbolKind::OBJECT,
            SymbolKind::Import => lsp::SymbolKind::MODULE,
        },
        tags: None,
        deprecated: None,
        range: ws.range(doc, s.span),
        selection_range: ws.range(doc, s.selection_span),
        children: (!children.is_empty()).then_some(children),
    }
}

pub fn inlay_hint(ws: &Workspace, doc: &Document, h: InlayHint) -> lsp::InlayHint {
    lsp::InlayHint {
        position: ws.lsp_position(doc, h.offset),
        label: lsp::InlayHintLabel::String(h.label),
        kind: Some(lsp::InlayHintKind::TYPE),
        text_edits: None,
        tooltip: None,
        padding_left: None,
        padding_right: None,
        data: None,
    }
}
