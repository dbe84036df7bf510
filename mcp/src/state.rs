//! What the tools share: the warm database behind a lock, and the model service when a
//! model is configured. Work on the database runs on a blocking thread (the runtime's
//! threads stay free to answer other calls) with the lock held: analysis takes
//! milliseconds, and salsa needs the database to itself to set a changed text. A panic in
//! the analysis becomes a tool error, never a dead server.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use rex_llm::service::ModelService;

use crate::documents::Documents;

pub struct State {
    documents: Mutex<Documents>,
    pub model: Option<Mutex<ModelService>>,
}

pub type Shared = Arc<State>;

/// What a tool answers: its JSON result, or a message for the agent.
pub type Outcome = Result<serde_json::Value, String>;

pub const INTERNAL_ERROR: &str = "internal error in the Rex analysis (this is a bug)";

impl State {
    pub fn new(documents: Documents, model: Option<ModelService>) -> Shared {
        Arc::new(State {
            documents: Mutex::new(documents),
            model: model.map(Mutex::new),
        })
    }
}

/// Runs `work` on the documents, on a blocking thread.
pub async fn with_documents<T: Send + 'static>(
    state: &Shared,
    work: impl FnOnce(&mut Documents) -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let state = state.clone();
    let job = tokio::task::spawn_blocking(move || {
        // The documents stay consistent through a panic (inputs are only replaced whole),
        // so a poisoned lock is still usable.
        let mut docs = state.documents.lock().unwrap_or_else(|e| e.into_inner());
        catch_unwind(AssertUnwindSafe(|| work(&mut docs)))
            .unwrap_or_else(|_| Err(INTERNAL_ERROR.into()))
    });
    job.await.unwrap_or_else(|_| Err(INTERNAL_ERROR.into()))
}

/// Runs `work` on a blocking thread, without the documents.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let job = tokio::task::spawn_blocking(move || {
        catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|_| Err(INTERNAL_ERROR.into()))
    });
    job.await.unwrap_or_else(|_| Err(INTERNAL_ERROR.into()))
}
