//! `rex mcp`: the semantic loop as Model Context Protocol tools over stdin/stdout, for
//! agent hosts (rex-mcp). `fill_hole_with_model` is offered when a model is found the way
//! `rex fill` finds it (`--model`, `REX_MODEL`, the installed default) or a server is named
//! (`--engine openai`); `--no-model` leaves it out.

use std::path::PathBuf;

use clap::Args;
use rex_llm::service::ModelSettings;

use crate::exit::Status;
use crate::fill::EngineKind;

#[derive(Args, Debug)]
pub struct McpArgs {
    /// A directory to search for imported modules after the importing file's own
    /// directory (repeatable; searched in order).
    #[arg(long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Offer no `fill_hole_with_model` tool, even when a model is installed.
    #[arg(long)]
    pub no_model: bool,
    /// Where the model runs: `embedded` (in-process llama.cpp) or `openai` (an
    /// OpenAI-compatible server).
    #[arg(long, value_enum, default_value = "embedded")]
    pub engine: EngineKind,
    /// The GGUF model (embedded: else `REX_MODEL`, else the installed default), or the
    /// served model's name (openai: else `REX_LLM_MODEL`).
    #[arg(long, value_name = "PATH|NAME")]
    pub model: Option<String>,
    /// The server's base URL (openai; else `REX_LLM_URL`; the API key only from
    /// `REX_LLM_API_KEY`).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// vllm, sglang or llamacpp (openai; else `REX_LLM_SERVER`, else vllm).
    #[arg(long, value_name = "KIND")]
    pub server: Option<String>,
    /// Seconds one request to the server may take (openai).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Samples per round of a fill.
    #[arg(long)]
    pub samples: Option<usize>,
    /// Token budget of one sample.
    #[arg(long)]
    pub max_tokens: Option<usize>,
    /// CPU threads of the embedded engine (default: the machine's cores).
    #[arg(long)]
    pub threads: Option<u32>,
    /// The embedded engine's context in tokens (default: the model's training context,
    /// capped so that its KV cache stays under 1 GiB).
    #[arg(long, value_name = "N")]
    pub context_size: Option<u32>,
    /// Most tokens a fill's prompt may take (default: the context less room for a sample).
    #[arg(long, value_name = "N")]
    pub prompt_budget: Option<usize>,
    /// Layers offloaded to the GPU (builds with the cuda, metal or vulkan feature).
    #[arg(long)]
    pub gpu_layers: Option<u32>,
}

pub fn run(args: &McpArgs) -> Status {
    let options = rex_mcp::Options {
        include_roots: crate::modules::roots(&args.include),
        model: (!args.no_model).then(|| settings(args)),
        stack_bytes: crate::stack::ANALYSIS_STACK_BYTES,
    };
    match rex_mcp::serve_stdio(options) {
        Ok(()) => Status::Success,
        Err(err) => {
            eprintln!("error: {err}");
            Status::Failure
        }
    }
}

fn settings(args: &McpArgs) -> ModelSettings {
    let openai = args.engine == EngineKind::Openai;
    ModelSettings {
        engine: Some(if openai { "openai" } else { "embedded" }.to_string()),
        path: args.model.as_ref().filter(|_| !openai).map(PathBuf::from),
        name: args.model.clone().filter(|_| openai),
        url: args.url.clone(),
        server: args.server.clone(),
        timeout: args.timeout,
        samples: args.samples,
        max_tokens: args.max_tokens,
        threads: args.threads,
        gpu_layers: args.gpu_layers,
        context_size: args.context_size,
        prompt_budget: args.prompt_budget,
        prefix: None,
        api_key: None,
    }
}
