//! `rex playground [--port N] [--dir DIR]`: serves the built browser playground
//! (`playground/build.sh` writes it to `playground/dist/`) on localhost.

mod http;

use std::io::{self, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::exit::Status;

/// Where `playground/build.sh` writes the site in this source tree.
const BUILT_SITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../playground/dist");

/// A client that sends nothing for this long is dropped, so it cannot hold a thread.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Args, Debug)]
pub struct PlaygroundArgs {
    /// Port on 127.0.0.1 to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,

    /// The built site to serve (default: playground/dist of this source tree).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn run(args: &PlaygroundArgs) -> Status {
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(BUILT_SITE));
    let root = match dir.join("index.html").canonicalize() {
        Ok(index) => match index.parent() {
            Some(root) => root.to_path_buf(),
            None => dir,
        },
        Err(_) => {
            eprintln!(
                "error: no built playground in {} (run playground/build.sh, or pass --dir)",
                dir.display()
            );
            return Status::Failure;
        }
    };
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, args.port)) {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("error: cannot listen on 127.0.0.1:{}: {err}", args.port);
            return Status::Failure;
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(args.port);
    println!("serving the Rex playground at http://127.0.0.1:{port}/ (Ctrl-C stops it)");
    // Tests and scripts read the address from the first line, so it must not wait in a buffer.
    let _ = io::stdout().flush();

    let root = Arc::new(root);
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let root = Arc::clone(&root);
        // One short-lived thread per connection: a page load makes a handful.
        let _ = std::thread::Builder::new()
            .name("rex-playground-http".into())
            .spawn(move || serve(stream, &root));
    }
    Status::Success
}

fn serve(mut stream: TcpStream, root: &Path) {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let _ = stream.set_write_timeout(Some(READ_TIMEOUT));
    let response = match http::read_request(&mut stream) {
        Ok(request) => http::respond(root, &request),
        Err(status) => http::Response::error(status),
    };
    let _ = response.write_to(&mut stream);
}
