//! Where the server's documents and modules live on disk: document URIs as the file paths
//! imports are resolved from, the include roots an editor configures, and the one reader
//! of module files that are not open in the editor.

use std::path::Path;

use rex_compiler::modules::normalize;
use serde_json::Value;
use tower_lsp_server::ls_types::{InitializeParams, Uri};

/// The path a document's imports are resolved from: the normalised file path of a `file:`
/// URI (percent-decoded), or the URI itself for any other scheme (`untitled:`), whose
/// relative imports then name no file that can be read.
pub fn document_path(uri: &str) -> String {
    uri.parse::<Uri>()
        .ok()
        .and_then(|uri| file_path(&uri))
        .unwrap_or_else(|| uri.to_string())
}

/// The normalised path of a `file:` URI.
pub fn file_path(uri: &Uri) -> Option<String> {
    if !uri.scheme().as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let path = uri.to_file_path()?;
    Some(normalize(&path.to_string_lossy()))
}

/// The include roots of `initializationOptions.includePaths`, absolute: a relative one is
/// taken from the workspace root (the first workspace folder, else `rootUri`), or from
/// the server's working directory when the client names no root. Entries that are not
/// strings are ignored.
pub fn include_roots(params: &InitializeParams) -> Vec<String> {
    let Some(Value::Array(paths)) = params
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("includePaths"))
    else {
        return Vec::new();
    };
    let base = workspace_root(params).or_else(|| {
        std::env::current_dir()
            .ok()
            .map(|d| normalize(&d.to_string_lossy()))
    });
    let mut roots: Vec<String> = Vec::new();
    for path in paths.iter().filter_map(Value::as_str) {
        let root = match &base {
            Some(base) if !Path::new(path).is_absolute() => normalize(&format!("{base}/{path}")),
            _ => normalize(path),
        };
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    roots
}

#[allow(deprecated)] // `rootUri` is what clients without workspace folders still send.
fn workspace_root(params: &InitializeParams) -> Option<String> {
    let folder = params
        .workspace_folders
        .as_ref()
        .and_then(|folders| folders.first())
        .map(|f| &f.uri);
    folder.or(params.root_uri.as_ref()).and_then(file_path)
}

/// The text of the module file at `path`: only absolute paths (a relative one would depend
/// on where the server happens to run) of regular files (not a fifo or device, which could
/// block), and only UTF-8 text.
pub fn read_module_file(path: &str) -> Option<String> {
    let path = Path::new(path);
    if !path.is_absolute() || !path.is_file() {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn file_uris_become_decoded_normalised_paths() {
        assert_eq!(
            document_path("file:///home/me/my%20project/./src/../main.rex"),
            "/home/me/my project/main.rex"
        );
        assert_eq!(document_path("FILE:///a/b.rex"), "/a/b.rex");
        assert_eq!(document_path("untitled:Untitled-1"), "untitled:Untitled-1");
        assert_eq!(document_path("not a uri"), "not a uri");
    }

    fn params(options: Value, root: Option<&str>) -> InitializeParams {
        serde_json::from_value(json!({
            "capabilities": {},
            "rootUri": root,
            "initializationOptions": options,
        }))
        .expect("initialize params")
    }

    #[test]
    fn include_paths_are_taken_from_the_workspace_root() {
        let p = params(
            json!({"includePaths": ["lib", "/opt/rex/std/", "../shared", 7, "lib"]}),
            Some("file:///work/app"),
        );
        assert_eq!(
            include_roots(&p),
            ["/work/app/lib", "/opt/rex/std", "/work/shared"]
        );
    }

    #[test]
    fn workspace_folders_win_over_the_root_uri() {
        let mut p = params(json!({"includePaths": ["lib"]}), Some("file:///old"));
        p.workspace_folders = Some(vec![tower_lsp_server::ls_types::WorkspaceFolder {
            uri: "file:///new%20root".parse().expect("uri"),
            name: "new".into(),
        }]);
        assert_eq!(include_roots(&p), ["/new root/lib"]);
    }

    #[test]
    fn no_option_means_no_include_roots() {
        assert!(include_roots(&params(Value::Null, Some("file:///a"))).is_empty());
        assert!(include_roots(&params(json!({"includePaths": "lib"}), None)).is_empty());
    }

    #[test]
    fn only_absolute_regular_files_are_read() {
        assert_eq!(read_module_file("Cargo.toml"), None);
        let dir = std::env::temp_dir();
        assert_eq!(read_module_file(&dir.to_string_lossy()), None);
    }
}
