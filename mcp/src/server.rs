//! The MCP server: rmcp's `ServerHandler` over the tools (`tools`, `dispatch`), the guide
//! resource and the instructions an agent reads first. `serve_stdio` runs it over standard
//! input and output until the client closes them. Requests are served concurrently
//! (rmcp runs each as its own task; the tools do their work on blocking threads).

use rex_llm::service::{ModelService, ModelSettings};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};

use crate::documents::Documents;
use crate::state::{Shared, State};
use crate::{dispatch, resources, tools};

/// How `rex mcp` was started.
pub struct Options {
    /// Directories searched for imported modules after the importer's own (normalised).
    pub include_roots: Vec<String>,
    /// The model for `fill_hole_with_model`; `None` leaves the tool out.
    pub model: Option<ModelSettings>,
    /// Stack of the threads the analysis runs on (deeply nested programs are stopped by the
    /// compiler's depth limits, not by a stack overflow).
    pub stack_bytes: usize,
}

const INSTRUCTIONS: &str = "Rex is a small, pure, strongly typed functional language with \
typed holes: `?` (or `?name`) stands for an expression still to be written, and a program \
with holes still checks and runs. Read the resource rex://guide/writing-rex before writing \
Rex. The loop: `check` the program; for each diagnostic of severity \"error\", call \
`semantic_loop_step` at its range.start, choose one of its quickFixes and give its id to \
`apply_quick_fix` with `write: true`; then `check` again, until no error is left \
(`apply_best_quick_fixes` does several steps at once, `dryRun: true` to preview). For a \
hole, `hole_fill_candidates` lists the fills that type-check there, each with the \
quickFixId that writes it. `run` evaluates the program. Positions are 0-based lines and \
UTF-16 characters, as LSP counts them; files are read again on every call, and only the \
tools with a `write` argument change them, only when it is true.";

#[derive(Clone)]
pub struct RexServer {
    state: Shared,
}

impl RexServer {
    pub fn new(options: &Options) -> RexServer {
        let model = options
            .model
            .clone()
            .and_then(|settings| match settings.unavailable() {
                None => Some(ModelService::new(settings)),
                Some(why) => {
                    eprintln!("rex mcp: no fill_hole_with_model: {why}");
                    None
                }
            });
        let documents = Documents::new(options.include_roots.clone());
        RexServer {
            state: State::new(documents, model),
        }
    }

    fn tools(&self) -> Vec<Tool> {
        tools::list(self.state.model.is_some())
    }
}

impl ServerHandler for RexServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("rex", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.unwrap_or_default();
        match dispatch::call(&self.state, &request.name, args, context).await {
            Some(result) => Ok(result.into()),
            None => Err(McpError::invalid_params(
                format!("unknown tool `{}`", request.name),
                None,
            )),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        match resources::read(&request.uri) {
            Some(contents) => Ok(ReadResourceResult::new(vec![contents]).into()),
            None => Err(McpError::resource_not_found(
                format!(
                    "no resource `{}` (there is {})",
                    request.uri,
                    resources::GUIDE_URI
                ),
                None,
            )),
        }
    }
}

/// Serves MCP over standard input and output until the client closes them.
pub fn serve_stdio(options: Options) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(options.stack_bytes)
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    let served = runtime.block_on(async {
        let service = RexServer::new(&options)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("the MCP session did not start: {e}"))?;
        service
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("the MCP session failed: {e}"))
    });
    // A run still going when the client left is not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    served
}
