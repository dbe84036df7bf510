//! A `match` that misses constructors gets one arm per missing constructor, with a hole for
//! its body, after its last arm and at that arm's indentation.

use rex_compiler::db::program_env;
use rex_compiler::syntax::ast::ExprKind;
use rex_compiler::{Diagnostic, DiagnosticData, Span};

use super::{Fix, FixKind};
use crate::edit::Replace;
use crate::locate::Document;
use crate::verify::improves;

pub fn fixes(doc: &Document<'_>, d: &Diagnostic, out: &mut Vec<Fix>) {
    let DiagnosticData::NonExhaustiveMatch { missing } = &d.data else {
        return;
    };
    if missing.is_empty() {
        return;
    }
    let Some(index) = doc.item_at(d.span.start as usize) else {
        return;
    };
    let Some(item) = doc.item(index) else {
        return;
    };
    let rel_start = d.span.start - item.offset;
    let Some(arms) = item.arena.exprs.iter().find_map(|e| match &e.kind {
        ExprKind::Match { arms, .. } if e.span.start == rel_start => Some(arms),
        _ => None,
    }) else {
        return;
    };
    let Some(last) = arms.last() else {
        return;
    };
    let last_span = item.abs(last.span);
    let line = doc.lines.line_of(last_span.start as usize);
    let line_start = doc.lines.line_start(line);
    let indent: String = doc.text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let env = program_env(doc.db, doc.db.prelude(), doc.file);
    let mut text = String::new();
    for name in missing {
        let pattern = match name.as_str() {
            "true" | "false" => name.clone(),
            _ => {
                let fields = env
                    .ctor_index
                    .get(name.as_str())
                    .and_then(|ids| ids.first())
                    .map(|id| env.ctor(*id).fields.len())
                    .unwrap_or(0);
                let mut p = name.clone();
                for _ in 0..fields {
                    p.push_str(" _");
                }
                p
            }
        };
        text.push('\n');
        text.push_str(&indent);
        text.push_str(&format!("when {pattern} -> ?"));
    }
    let edit = vec![Replace::new(Span::empty(last_span.end as usize), text)];
    if improves(doc, index, &edit, true) {
        let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
        out.push(Fix::new(
            FixKind::AddMatchArms,
            format!("Add the missing arms: {}", names.join(", ")),
            edit,
        ));
    }
}
