//! Which directory answers a request path: the playground's site at `/`, the built book
//! (`scripts/mdbook.sh build` writes `book/build`) under `/book/`, and a page saying how to
//! build the book when it is not there.

use std::path::{Path, PathBuf};

use super::http::{Request, Response};

/// Where the book is served from.
pub const BOOK_PREFIX: &str = "/book/";

/// What `/book/...` answers while the book is not built.
const BOOK_NOT_BUILT: &str = "<!doctype html>
<html lang=\"en\">
<meta charset=\"utf-8\">
<title>The Rex book is not built</title>
<h1>The Rex book is not built</h1>
<p>This server found no built book. In the Rex repository, run</p>
<pre>bash scripts/mdbook.sh build</pre>
<p>(it installs mdBook once, then writes the book to <code>book/build</code>) and reload this
page, or start the server with <code>rex playground --book DIR</code> to serve a book built
elsewhere. The sources are in <code>book/src</code>.</p>
<p><a href=\"/\">Back to the playground</a></p>
</html>
";

/// The served directories, canonical; `book` is `None` when no built book was found.
pub struct Site {
    pub root: PathBuf,
    pub book: Option<PathBuf>,
}

/// The canonical directory holding `dir/index.html`, if there is one.
pub fn built_dir(dir: &Path) -> Option<PathBuf> {
    let index = dir.join("index.html").canonicalize().ok()?;
    index.parent().map(Path::to_path_buf)
}

pub fn respond(site: &Site, request: &Request) -> Response {
    if request.path == "/book" {
        return Response::redirect(BOOK_PREFIX);
    }
    let Some(rest) = request.path.strip_prefix("/book/") else {
        return Response::file(&site.root, request);
    };
    match &site.book {
        Some(book) => Response::file(
            book,
            &Request {
                head_only: request.head_only,
                path: format!("/{rest}"),
            },
        ),
        None => Response::html(404, BOOK_NOT_BUILT, request.head_only),
    }
}
