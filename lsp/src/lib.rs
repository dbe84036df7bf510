//! The Rex language server: documents, capabilities and execute commands, adapted onto
//! `rex-ide`. A thin adapter: every answer is computed by `rex-ide`.

pub mod capabilities;
pub mod commands;
pub mod convert;
#[cfg(feature = "model")]
pub mod model_fill;
pub mod modules;
pub mod server;
pub mod transport;
pub mod workspace;

use tower_lsp_server::{LspService, Server};

/// Serves LSP over stdin/stdout until the client sends `exit` (or closes stdin). Runs on
/// the calling thread: requests are handled one at a time, in order, which keeps edits
/// and the requests after them in sequence. Malformed messages get a JSON-RPC error reply
/// and the session goes on (`transport`).
pub fn serve_stdio() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let (service, socket) = LspService::new(server::Backend::new);
        transport::guarded(
            tokio::io::stdin(),
            tokio::io::stdout(),
            |input, output| async move {
                Server::new(input, output, socket)
                    .concurrency_level(1)
                    .serve(service)
                    .await;
            },
        )
        .await;
    });
    // The guard's read of stdin may still be waiting for bytes that will never come (a
    // client need not close stdin after `exit`); that read cannot be cancelled, so the
    // runtime is not waited for.
    runtime.shutdown_background();
    Ok(())
}
