//! `rex lsp` and modules: imports resolve to files on disk, or to the editor's unsaved text
//! of a module that is open, and the importers of an edited module are republished.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

use crate::client::{position_of, Client};

/// A fresh project directory (its name has a blank, which URIs percent-encode), removed
/// when dropped.
struct Project(PathBuf);

impl Project {
    fn new() -> Project {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "rex lsp modules {}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("create project dir");
        Project(dir)
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.0.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create dirs");
        }
        std::fs::write(path, text).expect("write file");
    }

    /// The `file:` URI of a path in the project.
    fn uri(&self, relative: &str) -> String {
        file_uri(&self.0.join(relative))
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'/' | b'-' | b'.' | b'_' | b'~' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

const DEP: &str = "pub type Pair = Pair i32 i32

pub fn double x: i32 -> i32 = x * 2
";

const MAIN: &str = "import dep as D
import dep (double)

let n = D.double 21 in
double n
";

fn open(client: &mut Client, uri: &str, text: &str) -> Value {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "rex", "version": 1, "text": text}}),
    );
    published(client, uri)
}

/// The next diagnostics published for `uri`.
fn published(client: &mut Client, uri: &str) -> Value {
    client.wait_notification("textDocument/publishDiagnostics", |p| p["uri"] == uri)
}

fn errors(diagnostics: &Value) -> Vec<String> {
    diagnostics["diagnostics"]
        .as_array()
        .expect("diagnostics array")
        .iter()
        .filter(|d| d["severity"] == 1)
        .map(|d| format!("{} {}", d["code"].as_str().unwrap_or("?"), d["message"]))
        .collect()
}

fn hover_text(client: &mut Client, uri: &str, position: Value) -> String {
    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position}),
        )
        .expect("hover");
    hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn imports_resolve_to_module_files_on_disk() {
    let project = Project::new();
    project.write("dep.rex", DEP);
    let main = project.uri("main.rex");
    let (mut client, _) = Client::start();

    let diagnostics = open(&mut client, &main, MAIN);
    assert_eq!(errors(&diagnostics), Vec::<String>::new());

    let qualified = hover_text(&mut client, &main, position_of(MAIN, "D.double", 0, 3));
    assert!(qualified.contains("i32 -> i32"), "{qualified}");
    let imported = hover_text(&mut client, &main, position_of(MAIN, "double n", 0, 2));
    assert!(imported.contains("i32 -> i32"), "{imported}");
    assert!(client.shutdown().success());
}

#[test]
fn a_module_that_is_not_there_is_still_missing() {
    let project = Project::new();
    let main = project.uri("main.rex");
    let (mut client, _) = Client::start();
    let diagnostics = open(&mut client, &main, MAIN);
    let errs = errors(&diagnostics);
    assert!(!errs.is_empty(), "{diagnostics}");
    assert!(errs.iter().all(|e| e.starts_with("E0401")), "{errs:?}");
    assert!(client.shutdown().success());
}

#[test]
fn unsaved_edits_of_an_open_module_republish_its_importers() {
    let project = Project::new();
    project.write("dep.rex", DEP);
    let (main, dep) = (project.uri("main.rex"), project.uri("dep.rex"));
    let (mut client, _) = Client::start();
    open(&mut client, &main, MAIN);

    // The module is opened with `double` renamed and not saved: the importer loses it.
    let renamed = DEP.replace("double", "twice");
    open(&mut client, &dep, &renamed);
    let republished = published(&mut client, &main);
    let errs = errors(&republished);
    assert!(!errs.is_empty(), "{republished}");
    assert!(errs.iter().all(|e| e.contains("double")), "{errs:?}");
    assert!(errs.iter().all(|e| !e.starts_with("E0401")), "{errs:?}");

    // Renamed back in the editor: the importer is clean again.
    let twice_at = position_of(&renamed, "twice", 0, 0);
    let twice_end = position_of(&renamed, "twice", 0, 5);
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": dep, "version": 2},
            "contentChanges": [{"range": {"start": twice_at, "end": twice_end}, "text": "double"}]
        }),
    );
    assert_eq!(errors(&published(&mut client, &dep)), Vec::<String>::new());
    assert_eq!(errors(&published(&mut client, &main)), Vec::<String>::new());
    assert!(client.shutdown().success());
}

/// The `initializationOptions` the editors chapter of the book shows.
fn documented_initialization_options() -> Value {
    let chapter = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src/editors.md"),
    )
    .expect("read the editors chapter");
    let block = chapter
        .split("```json\n")
        .skip(1)
        .filter_map(|rest| rest.split_once("```").map(|(block, _)| block))
        .find(|block| block.contains("includePaths"))
        .expect("the chapter shows includePaths");
    serde_json::from_str(block).expect("the includePaths example is JSON")
}

#[test]
fn include_paths_from_the_initialization_options_are_searched() {
    let project = Project::new();
    let options = documented_initialization_options();
    let root = options["includePaths"][0]
        .as_str()
        .expect("a relative include path");
    project.write(&format!("{root}/dep.rex"), DEP);
    let main = project.uri("src/main.rex");

    let (mut client, _) = Client::start_with(json!({
        "processId": null,
        "rootUri": project.uri(""),
        "capabilities": {},
        "initializationOptions": options,
    }));
    assert_eq!(
        errors(&open(&mut client, &main, MAIN)),
        Vec::<String>::new()
    );
    assert!(client.shutdown().success());

    // Without the option the module is not found.
    let (mut client, _) = Client::start_with(json!({
        "processId": null,
        "rootUri": project.uri(""),
        "capabilities": {},
    }));
    let errs = errors(&open(&mut client, &main, MAIN));
    assert!(errs.iter().any(|e| e.starts_with("E0401")), "{errs:?}");
    assert!(client.shutdown().success());
}

#[test]
fn module_files_changed_on_disk_are_loaded_again_when_the_client_watches() {
    let project = Project::new();
    let main = project.uri("main.rex");
    let (mut client, _) = Client::start_with(json!({
        "processId": null,
        "rootUri": project.uri(""),
        "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}},
    }));
    let errs = errors(&open(&mut client, &main, MAIN));
    assert!(errs.iter().any(|e| e.starts_with("E0401")), "{errs:?}");
    assert!(
        client
            .server_requests
            .iter()
            .any(|(method, params)| method == "client/registerCapability"
                && params
                    .to_string()
                    .contains("workspace/didChangeWatchedFiles")),
        "{:?}",
        client.server_requests
    );

    project.write("dep.rex", DEP);
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": project.uri("dep.rex"), "type": 1}]}),
    );
    assert_eq!(errors(&published(&mut client, &main)), Vec::<String>::new());
    assert!(client.shutdown().success());
}

#[test]
fn definitions_of_imported_names_are_in_the_module_file() {
    let project = Project::new();
    project.write("dep.rex", DEP);
    let main = project.uri("main.rex");
    let dep = project.uri("dep.rex");
    let (mut client, _) = Client::start();
    open(&mut client, &main, MAIN);

    let definition = |client: &mut Client, position: Value| {
        client
            .request(
                "textDocument/definition",
                json!({"textDocument": {"uri": main}, "position": position}),
            )
            .expect("definition")
    };
    // `pub fn double` is on line 2 of dep.rex, its name at characters 7..13: reached from
    // the qualified use and from the name imported unqualified.
    let expected = json!({
        "uri": dep,
        "range": {"start": {"line": 2, "character": 7}, "end": {"line": 2, "character": 13}}
    });
    assert_eq!(
        definition(&mut client, position_of(MAIN, "D.double", 0, 4)),
        expected
    );
    assert_eq!(
        definition(&mut client, position_of(MAIN, "double n", 0, 1)),
        expected
    );
    // A local binding still resolves within the file.
    let local = definition(&mut client, position_of(MAIN, "double n", 0, 7));
    assert_eq!(local["uri"], json!(main));
    assert!(client.shutdown().success());
}

#[test]
fn mistakes_in_imported_files_are_published_on_those_files() {
    let project = Project::new();
    let broken = "pub fn double x: i32 -> i32 = x * \"2\"\n";
    project.write("dep.rex", broken);
    let main = project.uri("main.rex");
    let dep = project.uri("dep.rex");
    let (mut client, _) = Client::start();

    // Opening the importer publishes the module's own mistake on the module's URI.
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main, "languageId": "rex", "version": 1, "text": MAIN}}),
    );
    let on_dep = published(&mut client, &dep);
    let found = errors(&on_dep);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("E0301"), "{found:?}");

    // Opened and fixed in the editor, the module is a document: clean, and not cleared
    // or overwritten by the module report.
    let fixed = DEP;
    let on_dep = open(&mut client, &dep, fixed);
    assert_eq!(errors(&on_dep), Vec::<String>::new());
    // Closed again, the disk's text counts: its mistake is published once more.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": dep}}),
    );
    let cleared = published(&mut client, &dep);
    assert_eq!(errors(&cleared), Vec::<String>::new());
    let again = published(&mut client, &dep);
    assert_eq!(errors(&again).len(), 1, "{again}");
    assert!(client.shutdown().success());
}
