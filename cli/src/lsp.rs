//! `rex lsp`: the language server over stdin/stdout.

use clap::Args;

use crate::exit::Status;

#[derive(Args, Debug)]
pub struct LspArgs {
    /// Talk LSP over stdin/stdout (the only transport, and the default; accepted because
    /// editors pass it).
    #[arg(long)]
    pub stdio: bool,
}

pub fn run(_args: &LspArgs) -> Status {
    match rex_lsp::serve_stdio() {
        Ok(()) => Status::Success,
        Err(err) => {
            eprintln!("error: cannot start the language server: {err}");
            Status::Failure
        }
    }
}
