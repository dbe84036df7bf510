//! `rex playground [--port N] [--dir DIR] [--book DIR]`: serves the built browser playground
//! (`playground/build.sh` writes it to `playground/dist/`) on localhost, and the built book
//! (`scripts/mdbook.sh build` writes it to `book/build/`) under `/book/`.

mod http;
mod routes;

use std::io::{self, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::exit::Status;

/// Where `playground/build.sh` writes the site in this source tree.
const BUILT_SITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../playground/dist");

/// Where `scripts/mdbook.sh build` writes the book in this source tree.
const BUILT_BOOK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../book/build");

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

    /// The built book to serve under /book/ (default: book/build of this source tree; when
    /// it is not built, /book/ says how to build it).
    #[arg(long, value_name = "DIR")]
    pub book: Option<PathBuf>,
}

pub fn run(args: &PlaygroundArgs) -> Status {
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(BUILT_SITE));
    let Some(root) = routes::built_dir(&dir) else {
        eprintln!(
            "error: no built playground in {} (run playground/build.sh, or pass --dir)",
            dir.display()
        );
        return Status::Failure;
    };
    let book = args
        .book
        .clone()
        .unwrap_or_else(|| PathBuf::from(BUILT_BOOK));
    let site = Arc::new(routes::Site {
        root,
        book: routes::built_dir(&book),
    });
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, args.port)) {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("error: cannot listen on 127.0.0.1:{}: {err}", args.port);
            return Status::Failure;
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(args.port);
    println!("serving the Rex playground at http://127.0.0.1:{port}/ (Ctrl-C stops it)");
    // Written without panicking: a reader may have stopped after the first line.
    let _ = match &site.book {
        Some(_) => writeln!(io::stdout(), "the book at http://127.0.0.1:{port}/book/"),
        None => writeln!(
            io::stdout(),
            "no built book in {} (bash scripts/mdbook.sh build writes it)",
            book.display()
        ),
    };
    // Tests and scripts read the address from the first line, so it must not wait in a buffer.
    let _ = io::stdout().flush();

    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let site = Arc::clone(&site);
        // One short-lived thread per connection: a page load makes a handful.
        let _ = std::thread::Builder::new()
            .name("rex-playground-http".into())
            .spawn(move || serve(stream, &site));
    }
    Status::Success
}

fn serve(mut stream: TcpStream, site: &routes::Site) {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let _ = stream.set_write_timeout(Some(READ_TIMEOUT));
    let response = match http::read_request(&mut stream) {
        Ok(request) => routes::respond(site, &request),
        Err(status) => http::Response::error(status),
    };
    let _ = response.write_to(&mut stream);
}
