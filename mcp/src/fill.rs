//! `fill_hole_with_model`: the hole's fills from the model, through rex-llm's model
//! service (the worker the LSP's `rex.fillHoleWithModel` uses, with the same JSON result:
//! every fill type-checks at the hole). The worker fills a copy of the program, so the
//! shared database stays free. Progress goes to the client as `notifications/progress`
//! when the call carries a progress token; a cancelled call stops the decoding at the next
//! token. With `write: true` the best fill is written over the hole in the file.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rex_compiler::Position;
use rex_llm::fill::{HoleFills, Progress};
use rex_llm::service::{CancelOnDrop, Job};
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::args::FillArgs;
use crate::documents::{position, write, Opened};
use crate::state::{with_documents, Outcome, Shared, INTERNAL_ERROR};

pub async fn fill(state: &Shared, args: FillArgs, ctx: RequestContext<RoleServer>) -> Outcome {
    let model = state
        .model
        .as_ref()
        .ok_or("no model is configured for this server")?;
    let write_back = args.write;
    let (program, opened) = with_documents(state, move |docs| {
        let opened = docs.open(&args.source)?;
        position(&opened.text, args.at)?;
        Ok((docs.program(&opened), opened))
    })
    .await?;
    let (reply, replied) = oneshot::channel();
    let (progress, mut reports) = mpsc::unbounded_channel::<Progress>();
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    let job = Job {
        text: program.text,
        path: program.path,
        modules: program.modules,
        include_roots: program.include_roots,
        pos: Position {
            line: args.at.line,
            character: args.at.character,
        },
        cancel,
        progress: Box::new(move |p| {
            let _ = progress.send(p);
        }),
        reply: Box::new(move |r| {
            let _ = reply.send(r);
        }),
    };
    model
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .submit(job)?;
    let fills = wait(replied, &mut reports, &ctx).await?;
    let mut result = serde_json::to_value(&fills).map_err(|_| INTERNAL_ERROR.to_string())?;
    if write_back {
        if let Some(path) = write_best(&opened, &fills)? {
            if let Value::Object(fields) = &mut result {
                fields.insert("written".into(), Value::String(path));
            }
        }
    }
    Ok(result)
}

/// The worker's answer, forwarding its progress meanwhile; an error when the client
/// cancels the call.
async fn wait(
    mut replied: oneshot::Receiver<Result<HoleFills, String>>,
    reports: &mut mpsc::UnboundedReceiver<Progress>,
    ctx: &RequestContext<RoleServer>,
) -> Result<HoleFills, String> {
    let token = ctx.meta.get_progress_token();
    // MCP's progress must grow with every notification, and the rounds a fill takes are
    // not known in advance: the count of samples begun so far, the sample in the message.
    let mut begun = 0u32;
    loop {
        tokio::select! {
            r = &mut replied => return r.map_err(|_| INTERNAL_ERROR.to_string())?,
            Some(p) = reports.recv() => {
                begun += 1;
                if let Some(token) = &token {
                    let message = format!(
                        "round {}, sample {} of {}",
                        p.round + 1,
                        p.sample + 1,
                        p.samples
                    );
                    let note = ProgressNotificationParam::new(token.clone(), f64::from(begun))
                        .with_message(message);
                    let _ = ctx.peer.notify_progress(note).await;
                }
            }
            _ = ctx.ct.cancelled() => return Err("cancelled by the client".into()),
        }
    }
}

/// Writes the best fill over the hole; the path written, `None` when there is no fill.
fn write_best(opened: &Opened, fills: &HoleFills) -> Result<Option<String>, String> {
    let Some(best) = fills.best_written() else {
        return Ok(None);
    };
    if let (true, Some(target)) = (opened.from_disk, &opened.target) {
        if std::fs::read_to_string(target).ok().as_deref() != Some(opened.text.as_str()) {
            return Err(format!(
                "`{}` changed while the model was filling the hole; nothing was written \
                 (the fills are for the text as it was)",
                target.display()
            ));
        }
    }
    let at = |p: rex_ide::edit::LspPosition| Position {
        line: p.line,
        character: p.character,
    };
    let edit = (at(fills.range.start), at(fills.range.end), best);
    let text = rex_ide::written::apply_edits(&opened.text, &[edit]);
    write(opened, &text).map(Some)
}
