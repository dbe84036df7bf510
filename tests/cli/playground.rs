//! `rex playground` driven through the real binary: it serves a built site on localhost
//! with the content types browsers require, and nothing outside the site.

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

impl Served {
    fn start() -> Served {
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
        let mut child = Command::new(env!("CARGO_BIN_EXE_rex"))
            .args(["playground", "--port", "0", "--dir"])
            .arg(&dir)
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
