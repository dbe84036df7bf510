//! `workspace/executeCommand` and code actions: the semantic-assist commands of
//! `rex-ide`, run on the document their `uri` names. Edits a command produces (a chosen
//! quick fix, a bulk repair that is not a dry run) are handed back for the client to
//! apply with `workspace/applyEdit`; the server's copy changes when the client reports
//! the edit, like any other.

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use crate::workspace::Workspace;

/// The commands advertised in `executeCommandProvider`.
pub const COMMANDS: &[&str] = &[
    "rex.expectedTypeAt",
    "rex.functionsProducingExpectedTypeAt",
    "rex.functionsAcceptingInferredTypeAt",
    "rex.adaptersFromInferredToExpectedAt",
    "rex.functionsCompatibleWithInScopeValuesAt",
    "rex.holesExpectedTypes",
    "rex.semanticLoopStep",
    "rex.semanticLoopApplyQuickFixAt",
    "rex.semanticLoopApplyBestQuickFixesAt",
];

/// A command's JSON result, and the edit the client should apply, if any.
pub struct Outcome {
    pub result: Value,
    pub edit: Option<WorkspaceEdit>,
}

pub fn execute(_ws: &mut Workspace, command: &str, _arguments: Vec<Value>) -> Result<Outcome> {
    let mut e = Error::method_not_found();
    e.message = format!("command `{command}` is not available yet").into();
    Err(e)
}

pub fn code_actions(
    _ws: &mut Workspace,
    _uri: &Uri,
    _range: Range,
) -> Result<Option<CodeActionResponse>> {
    Ok(None)
}
