//! `rex playground` driven through the real binary: it serves a built site on localhost
//! with the content types browsers require, the built book under `/book/` (or a page saying
//! how to build it), and nothing outside the two.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A served site in a temp dir; the server and the dir go away on drop.
struct Served {
    child: Child,
    port: u16,
    dir: PathBuf,
}

/// A built book's stand-in: an index and one chapter, as `mdbook build` lays them out.
const BOOK_INDEX: &str = "<!doctype html><title>Rex book</title><a href=\"tour.html\">Tour</a>";

impl Served {
    fn start() -> Served {
        Served::start_with_book(|_| None)
    }

    /// `book` makes the book directory to pass as `--book` (inside the site's temp dir).
    fn start_with_book(book: impl Fn(&PathBuf) -> Option<PathBuf>) -> Served {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "rex-cli-playground-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(dir.join("pkg")).expect("create site dir");
        std::fs::write(dir.join("index.html"), "<!doctype html><title>t</title>").expect("write");
        std::fs::write(dir.join("main.js"), "export {};").expect("write");
        std::fs::write(dir.join("pkg/x.wasm"), b"\0asm\x01\0\0\0").expect("write");
        // Without a book of its own, a directory where none is built.
        let book = book(&dir).unwrap_or_else(|| dir.join("no-book"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_rex"))
            .args(["playground", "--port", "0", "--dir"])
            .arg(&dir)
            .arg("--book")
            .arg(&book)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start rex playground");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("piped stdout");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("read the address line");
        let port = first
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        Served { child, port, dir }
    }

    /// The raw response to a raw request: (status line, headers, body).
    fn send(&self, request: &str) -> (String, String, Vec<u8>) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.write_all(request.as_bytes()).expect("send");
        let mut response = Vec::new();
        stream.read_to_end(&mut response).expect("receive");
        let split = response
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a response head");
        let head = String::from_utf8_lossy(&response[..split]).to_string();
        let (status, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
        (
            status.to_string(),
            headers.to_string(),
            response[split + 4..].to_vec(),
        )
    }

    fn get(&self, path: &str) -> (String, String, Vec<u8>) {
        self.send(&format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n"))
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn serves_the_site_with_browser_content_types() {
    let site = Served::start();
    let (status, headers, body) = site.get("/");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(
        headers.contains("Content-Type: text/html; charset=utf-8"),
        "{headers}"
    );
    assert_eq!(body, b"<!doctype html><title>t</title>");

    let (status, headers, body) = site.get("/pkg/x.wasm");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(
        headers.contains("Content-Type: application/wasm"),
        "{headers}"
    );
    assert_eq!(body, b"\0asm\x01\0\0\0");

    let (_, headers, _) = site.get("/main.js?v=2");
    assert!(
        headers.contains("Content-Type: text/javascript"),
        "{headers}"
    );

    let (status, headers, body) = site.send("HEAD /main.js HTTP/1.1\r\n\r\n");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(headers.contains("Content-Length: 10"), "{headers}");
    assert!(body.is_empty());
}

#[test]
fn serves_nothing_outside_the_site() {
    let site = Served::start();
    for path in [
        "/missing.js",
        "/../Cargo.toml",
        "/pkg/../../etc/passwd",
        "/%2e%2e/x",
        "/pkg",
    ] {
        let (status, _, _) = site.get(path);
        assert_eq!(status, "HTTP/1.1 404 Not Found", "{path}");
    }
    let (status, headers, _) = site.send("DELETE / HTTP/1.1\r\n\r\n");
    assert_eq!(status, "HTTP/1.1 405 Method Not Allowed");
    assert!(headers.contains("Allow: GET, HEAD"));
    let (status, _, _) = site.send("nonsense\r\n\r\n");
    assert_eq!(status, "HTTP/1.1 400 Bad Request");
}

#[test]
fn a_missing_site_is_a_clear_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_rex"))
        .args([
            "playground",
            "--port",
            "0",
            "--dir",
            "/nonexistent/rex-site",
        ])
        .output()
        .expect("run rex playground");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("run playground/build.sh"), "{stderr}");
}

#[test]
fn serves_the_built_book_under_book() {
    let site = Served::start_with_book(|dir| {
        let book = dir.join("book-build");
        std::fs::create_dir_all(book.join("css")).expect("create book dir");
        std::fs::write(book.join("index.html"), BOOK_INDEX).expect("write");
        std::fs::write(book.join("tour.html"), "<p>tour</p>").expect("write");
        std::fs::write(book.join("css/book.css"), "body {}").expect("write");
        Some(book)
    });
    let (status, headers, body) = site.get("/book/");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(headers.contains("Content-Type: text/html"), "{headers}");
    assert_eq!(body, BOOK_INDEX.as_bytes());

    let (status, _, body) = site.get("/book/tour.html");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(body, b"<p>tour</p>");
    let (_, headers, _) = site.get("/book/css/book.css");
    assert!(headers.contains("Content-Type: text/css"), "{headers}");

    // Without the slash, the book's relative links would miss: a redirect adds it.
    let (status, headers, _) = site.get("/book");
    assert_eq!(status, "HTTP/1.1 301 Moved Permanently");
    assert!(headers.contains("Location: /book/"), "{headers}");

    // The playground itself is still at the root, and nothing escapes the book.
    let (status, _, _) = site.get("/");
    assert_eq!(status, "HTTP/1.1 200 OK");
    for path in [
        "/book/../index.html",
        "/book/%2e%2e/main.js",
        "/book/missing.html",
    ] {
        let (status, _, _) = site.get(path);
        assert_eq!(status, "HTTP/1.1 404 Not Found", "{path}");
    }
}

#[test]
fn an_unbuilt_book_is_a_page_saying_how_to_build_it() {
    let site = Served::start();
    for path in ["/book/", "/book/tour.html"] {
        let (status, headers, body) = site.get(path);
        assert_eq!(status, "HTTP/1.1 404 Not Found", "{path}");
        assert!(headers.contains("Content-Type: text/html"), "{headers}");
        let page = String::from_utf8_lossy(&body);
        assert!(page.contains("bash scripts/mdbook.sh build"), "{page}");
    }
    // The server is still up and serving the playground.
    let (status, _, _) = site.get("/main.js");
    assert_eq!(status, "HTTP/1.1 200 OK");
}
