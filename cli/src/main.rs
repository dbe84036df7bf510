//! The `rex` command-line tool. Each subcommand lives in its own module; this file only parses
//! the arguments and runs the chosen command on a large stack.

mod check;
mod exit;
mod fill;
mod ide;
mod lsp;
mod mcp;
mod modules;
mod pages;
mod playground;
mod render;
mod run;
mod stack;

use clap::{Parser, Subcommand};

use crate::render::ColorMode;

/// mimalloc instead of the system allocator: checking allocates and frees many small
/// syntax and type nodes, and the system's malloc and free were a quarter of a large file's
/// check (perf, `rex check` on 10,000 lines). Its version 2 (`libmimalloc-sys`'s `v2`
/// feature), not 3: Rust asks for every block with its alignment, and version 3 serves an
/// aligned request whose size is not a power of two from the next larger size class once
/// its page has no free block (a 48-byte node took 64 bytes). Measured side by side: `rex
/// run` of a program printing one number about 10% and `rex check` of 10,000 lines 5%
/// faster with version 2. Entered at its fast path where the alignment allows (`alloc`).
#[global_allocator]
static GLOBAL: rex_alloc::Mimalloc = rex_alloc::Mimalloc;

#[derive(Parser, Debug)]
#[command(name = "rex", version, about = "The Rex language toolchain")]
struct Cli {
    /// When to colour terminal output.
    #[arg(long, value_enum, default_value_t = ColorMode::Auto, global = true)]
    color: ColorMode,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and check Rex files and report their diagnostics.
    Check(check::CheckArgs),
    /// Run a Rex program (a file, `-c CODE` or `--stdin`) and print its value.
    Run(run::RunArgs),
    /// Run a semantic-assist command (`rex.*` of the LSP) on a file and print its JSON.
    Ide(ide::IdeArgs),
    /// Fill the holes of a file with the embedded language model; every fill type-checks.
    Fill(fill::FillArgs),
    /// Run the language server (LSP over stdin/stdout).
    Lsp(lsp::LspArgs),
    /// Serve the semantic loop as Model Context Protocol tools over stdin/stdout (for
    /// agent hosts).
    Mcp(mcp::McpArgs),
    /// Serve the browser playground (built by playground/build.sh) on localhost.
    Playground(playground::PlaygroundArgs),
}

fn main() -> std::process::ExitCode {
    pages::small_while_starting();
    // The arguments are parsed on the large stack too (`stack`).
    let status = stack::run_with_large_stack(|| {
        let cli = Cli::parse();
        // `check` and `run` turn huge pages back on themselves, where their work begins.
        if !matches!(cli.command, Command::Check(_) | Command::Run(_)) {
            pages::huge_from_now();
        }
        match cli.command {
            Command::Check(args) => check::run(&args, cli.color),
            Command::Run(args) => run::run(&args, cli.color),
            Command::Ide(args) => ide::run(&args),
            Command::Fill(args) => fill::run(&args),
            Command::Lsp(args) => lsp::run(&args),
            Command::Mcp(args) => mcp::run(&args),
            Command::Playground(args) => playground::run(&args),
        }
    });
    status.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
