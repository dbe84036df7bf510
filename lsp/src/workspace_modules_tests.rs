//! Loading modules for open documents, over an in-memory disk that counts its reads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tower_lsp_server::ls_types::TextDocumentContentChangeEvent;

use super::Workspace;

const MAIN: &str = "file:///p/main.rex";
const DEP: &str = "file:///p/dep.rex";
const OTHER: &str = "file:///p/other.rex";

const DEP_ON_DISK: &str = "pub fn double x: i32 -> i32 = x * 2\n";
const MAIN_TEXT: &str = "import dep as D\n\nD.double 21\n";

struct Disk {
    files: Arc<Mutex<HashMap<String, String>>>,
    reads: Arc<AtomicUsize>,
}

impl Disk {
    fn write(&self, path: &str, text: &str) {
        if let Ok(mut files) = self.files.lock() {
            files.insert(path.to_string(), text.to_string());
        }
    }

    fn reads(&self) -> usize {
        self.reads.load(Ordering::Relaxed)
    }
}

fn workspace(files: &[(&str, &str)]) -> (Workspace, Disk) {
    let disk = Disk {
        files: Arc::new(Mutex::new(
            files
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect(),
        )),
        reads: Arc::new(AtomicUsize::new(0)),
    };
    let (files, reads) = (disk.files.clone(), disk.reads.clone());
    let ws = Workspace::with_reader(Box::new(move |path| {
        reads.fetch_add(1, Ordering::Relaxed);
        files.lock().ok()?.get(path).cloned()
    }));
    (ws, disk)
}

fn codes(ws: &Workspace, uri: &str) -> Vec<String> {
    let doc = ws.document(uri).expect("open document");
    ws.diagnostics(doc)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

fn replace_all(ws: &mut Workspace, uri: &str, version: i32, text: &str) -> Vec<String> {
    let change = TextDocumentContentChangeEvent {
        range: None,
        range_length: None,
        text: text.to_string(),
    };
    ws.change(uri, version, vec![change])
}

#[test]
fn an_open_document_sees_the_modules_on_disk() {
    let (mut ws, _) = workspace(&[("/p/dep.rex", DEP_ON_DISK)]);
    assert_eq!(ws.open(MAIN, MAIN_TEXT.to_string(), 1), [MAIN]);
    assert_eq!(codes(&ws, MAIN), Vec::<String>::new());
    assert_eq!(
        ws.document(MAIN).map(|d| d.path.as_str()),
        Some("/p/main.rex")
    );

    let (mut ws, _) = workspace(&[]);
    ws.open(MAIN, MAIN_TEXT.to_string(), 1);
    let errors = codes(&ws, MAIN);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("E0401"), "{errors:?}");
}

#[test]
fn editing_an_open_module_republishes_its_importers_only() {
    let (mut ws, _) = workspace(&[("/p/dep.rex", DEP_ON_DISK)]);
    ws.open(MAIN, MAIN_TEXT.to_string(), 1);
    ws.open(OTHER, "1 + 1\n".to_string(), 1);

    // The editor's unsaved text wins over the disk.
    let renamed = DEP_ON_DISK.replace("double", "twice");
    assert_eq!(ws.open(DEP, renamed.clone(), 1), [DEP, MAIN]);
    let errors = codes(&ws, MAIN);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("E0402"), "{errors:?}");
    assert!(errors[0].contains("`double` is not exported"), "{errors:?}");

    assert_eq!(replace_all(&mut ws, DEP, 2, DEP_ON_DISK), [DEP, MAIN]);
    assert_eq!(codes(&ws, MAIN), Vec::<String>::new());

    // Closing the module brings back the disk's text, which equals the last edit: the
    // modules do not change and nobody needs republishing.
    assert!(ws.close(DEP).is_empty());
    assert_eq!(codes(&ws, MAIN), Vec::<String>::new());
}

#[test]
fn closing_an_edited_module_falls_back_to_the_disk() {
    let (mut ws, _) = workspace(&[("/p/dep.rex", DEP_ON_DISK)]);
    ws.open(MAIN, MAIN_TEXT.to_string(), 1);
    ws.open(DEP, DEP_ON_DISK.replace("double", "twice"), 1);
    assert_eq!(codes(&ws, MAIN).len(), 1);
    assert_eq!(ws.close(DEP), [MAIN]);
    assert_eq!(codes(&ws, MAIN), Vec::<String>::new());
}

#[test]
fn edits_that_leave_the_imports_alone_read_nothing() {
    let (mut ws, disk) = workspace(&[("/p/dep.rex", DEP_ON_DISK)]);
    ws.open(MAIN, MAIN_TEXT.to_string(), 1);
    let after_open = disk.reads();
    assert!(after_open > 0);

    let edited = MAIN_TEXT.replace("21", "22");
    assert_eq!(replace_all(&mut ws, MAIN, 2, &edited), [MAIN]);
    assert_eq!(disk.reads(), after_open);

    // A new import loads its module, without reading the known one again.
    disk.write("/p/more.rex", "pub fn triple x: i32 -> i32 = x * 3\n");
    let more = "import more (triple)\nimport dep as D\n\nD.double (triple 1)\n";
    assert_eq!(replace_all(&mut ws, MAIN, 3, more), [MAIN]);
    assert_eq!(disk.reads(), after_open + 1);
    assert_eq!(codes(&ws, MAIN), Vec::<String>::new());
}

#[test]
fn files_changed_on_disk_are_loaded_again() {
    let (mut ws, disk) = workspace(&[]);
    ws.open(MAIN, MAIN_TEXT.to_string(), 1);
    assert_eq!(codes(&ws, MAIN).len(), 1);
    disk.write("/p/dep.rex", DEP_ON_DISK);
    assert_eq!(ws.files_changed(), [MAIN]);
    assert_eq!(codes(&ws, MAIN), Vec::<String>::new());
    assert!(ws.files_changed().is_empty());
}

#[test]
fn modules_that_import_each_other_load_once() {
    let (mut ws, _) = workspace(&[
        ("/p/a.rex", "import b as B\npub fn a x: i32 -> i32 = x\n"),
        (
            "/p/b.rex",
            "import a as A\npub fn b x: i32 -> i32 = A.a x\n",
        ),
    ]);
    ws.open(
        MAIN,
        "import a as A\nimport b as B\n\nA.a (B.b 1)\n".to_string(),
        1,
    );
    let errors = codes(&ws, MAIN);
    assert!(errors.iter().all(|e| !e.starts_with("E0401")), "{errors:?}");
    let a_text = "import b as B\npub fn a x: i32 -> i32 = x + 1\n";
    assert_eq!(
        ws.open("file:///p/a.rex", a_text.to_string(), 1),
        ["file:///p/a.rex", MAIN]
    );
}

#[test]
fn include_roots_are_searched_after_the_importer_directory() {
    let (mut ws, _) = workspace(&[("/lib/dep.rex", DEP_ON_DISK)]);
    ws.open(MAIN, MAIN_TEXT.to_string(), 1);
    assert_eq!(codes(&ws, MAIN).len(), 1);
    assert_eq!(ws.set_include_roots(vec!["/lib".to_string()]), [MAIN]);
    assert_eq!(codes(&ws, MAIN), Vec::<String>::new());
}
