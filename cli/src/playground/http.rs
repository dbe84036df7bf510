//! The little HTTP/1.1 the playground needs: GET and HEAD of static files under a root,
//! redirects, one request per connection, content types that browsers insist on (`application/wasm`
//! for streaming compilation, `text/javascript` for module scripts).

use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

/// Requests larger than this (request line and headers) are refused.
const MAX_REQUEST_BYTES: usize = 16 * 1024;

pub struct Request {
    pub head_only: bool,
    /// The decoded path, always starting with `/`.
    pub path: String,
}

pub struct Response {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    head_only: bool,
    /// The `Location` of a redirect.
    location: Option<&'static str>,
}

/// Reads the request head; `Err` carries the status to answer with.
pub fn read_request(stream: &mut impl Read) -> Result<Request, u16> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() > MAX_REQUEST_BYTES {
            return Err(431);
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return Err(400),
            Ok(n) => head.extend_from_slice(&chunk[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head);
    let mut words = head.lines().next().unwrap_or_default().split(' ');
    let (Some(method), Some(target), Some(version)) = (words.next(), words.next(), words.next())
    else {
        return Err(400);
    };
    if !version.starts_with("HTTP/1.") {
        return Err(400);
    }
    let head_only = match method {
        "GET" => false,
        "HEAD" => true,
        _ => return Err(405),
    };
    let raw_path = target.split(['?', '#']).next().unwrap_or_default();
    let path = percent_decode(raw_path).ok_or(400u16)?;
    if !path.starts_with('/') {
        return Err(400);
    }
    Ok(Request { head_only, path })
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file a request path names under `root`, if it names one there: no `..`, no
/// absolute parts, and no symbolic link that leads outside.
fn resolve(root: &Path, path: &str) -> Option<PathBuf> {
    let relative = if path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    };
    let relative = Path::new(relative.trim_start_matches('/'));
    if relative.as_os_str().is_empty()
        || relative.to_string_lossy().contains(['\\', '\0'])
        || !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let file = root.join(relative).canonicalize().ok()?;
    (file.starts_with(root) && file.is_file()).then_some(file)
}

pub fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "rex" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Error",
    }
}

impl Response {
    /// The file `request` names under `root`, or 404.
    pub fn file(root: &Path, request: &Request) -> Response {
        let Some(file) = resolve(root, &request.path) else {
            return Response::error(404);
        };
        match std::fs::read(&file) {
            Ok(body) => Response {
                status: 200,
                content_type: content_type(&file),
                body,
                head_only: request.head_only,
                location: None,
            },
            Err(_) => Response::error(404),
        }
    }

    pub fn error(status: u16) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{status} {}\n", reason(status)).into_bytes(),
            head_only: false,
            location: None,
        }
    }

    /// A page of our own, with its status.
    pub fn html(status: u16, page: &str, head_only: bool) -> Response {
        Response {
            status,
            content_type: "text/html; charset=utf-8",
            body: page.as_bytes().to_vec(),
            head_only,
            location: None,
        }
    }

    pub fn redirect(location: &'static str) -> Response {
        Response {
            location: Some(location),
            ..Response::error(301)
        }
    }

    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let allow = if self.status == 405 {
            "Allow: GET, HEAD\r\n"
        } else {
            ""
        };
        let location = self
            .location
            .map(|l| format!("Location: {l}\r\n"))
            .unwrap_or_default();
        write!(
            out,
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n{allow}{location}\
             Connection: close\r\n\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        )?;
        if !self.head_only {
            out.write_all(&self.body)?;
        }
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(text: &str) -> Result<Request, u16> {
        read_request(&mut text.as_bytes())
    }

    #[test]
    fn parses_get_and_head_and_decodes_the_path() {
        let r = request("GET /a%20b.js?x=1 HTTP/1.1\r\nHost: x\r\n\r\n").expect("valid");
        assert_eq!((r.path.as_str(), r.head_only), ("/a b.js", false));
        let r = request("HEAD / HTTP/1.0\r\n\r\n").expect("valid");
        assert!(r.head_only);
    }

    #[test]
    fn refuses_bad_requests() {
        assert_eq!(request("POST / HTTP/1.1\r\n\r\n").err(), Some(405));
        assert_eq!(request("GET\r\n\r\n").err(), Some(400));
        assert_eq!(request("GET / SMTP\r\n\r\n").err(), Some(400));
        assert_eq!(request("GET /%zz HTTP/1.1\r\n\r\n").err(), Some(400));
        assert_eq!(request("GET /%ff HTTP/1.1\r\n\r\n").err(), Some(400));
        assert_eq!(request("GET / HTTP/1.1\r\n").err(), Some(400));
        let huge = format!(
            "GET /{} HTTP/1.1\r\n\r\n",
            "a".repeat(MAX_REQUEST_BYTES * 2)
        );
        assert_eq!(request(&huge).err(), Some(431));
    }

    #[test]
    fn resolves_only_files_inside_the_root() {
        let root = std::env::temp_dir().join(format!("rex-http-resolve-{}", std::process::id()));
        std::fs::create_dir_all(root.join("sub")).expect("temp dir");
        std::fs::write(root.join("index.html"), "i").expect("write");
        std::fs::write(root.join("sub/index.html"), "s").expect("write");
        let root = root.canonicalize().expect("canonical");
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/sub/"), Some(root.join("sub/index.html")));
        assert_eq!(resolve(&root, "/sub"), None, "a directory is not a file");
        assert_eq!(resolve(&root, "/../index.html"), None);
        assert_eq!(resolve(&root, "/sub/../index.html"), None);
        assert_eq!(resolve(&root, "//etc/passwd"), None);
        assert_eq!(resolve(&root, "/missing.js"), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn content_types_browsers_need() {
        assert_eq!(content_type(Path::new("x.wasm")), "application/wasm");
        assert_eq!(
            content_type(Path::new("main.js")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("index.html")),
            "text/html; charset=utf-8"
        );
    }
}
