//! The stdio transport, guarded. tower-lsp reads frames with a codec that ends the whole
//! input stream at the first body it cannot decode, so one malformed message (bad JSON, a
//! `method` that is not a string, a frame without `Content-Length`) would end the session.
//! Here the frames are read first: a body that is a JSON-RPC request, notification or
//! response goes on to tower-lsp unchanged; any other gets the JSON-RPC error reply (parse
//! error or invalid request, with the message's id when it has a usable one) and is dropped.
//! The server's own output and these replies are written to stdout a whole frame at a time.

use serde_json::{json, Value};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Request, Response};

/// The longest body accepted; a longer one is read past and answered with an error.
pub const MAX_BODY: usize = 64 << 20;

/// The longest header line; a longer one is garbage.
const MAX_HEADER_LINE: u64 = 8 << 10;

/// Buffer of the in-process pipes between the guard and tower-lsp.
const PIPE: usize = 1 << 16;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

/// What one frame of input held.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    Body(Vec<u8>),
    /// A frame that cannot be read as one (no or a bad `Content-Length`, a body too long).
    Bad(String),
    /// The input ended.
    End,
}

/// Reads one `Content-Length` frame.
pub async fn read_frame<R: AsyncBufRead + Unpin>(r: &mut R) -> std::io::Result<Frame> {
    let mut length: Result<Option<usize>, String> = Ok(None);
    let mut headers = 0;
    loop {
        let mut line = Vec::new();
        let n = (&mut *r)
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)
            .await?;
        if n == 0 {
            return Ok(Frame::End);
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim();
        if line.is_empty() {
            if headers == 0 {
                continue;
            }
            break;
        }
        headers += 1;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value
                    .trim()
                    .parse::<usize>()
                    .map(Some)
                    .map_err(|_| format!("bad Content-Length `{}`", value.trim()));
            }
        }
    }
    let n = match length {
        Ok(Some(n)) => n,
        Ok(None) => return Ok(Frame::Bad("a frame without Content-Length".into())),
        Err(e) => return Ok(Frame::Bad(e)),
    };
    if n > MAX_BODY {
        tokio::io::copy(&mut (&mut *r).take(n as u64), &mut tokio::io::sink()).await?;
        return Ok(Frame::Bad(format!(
            "a body of {n} bytes (at most {MAX_BODY})"
        )));
    }
    let mut body = vec![0; n];
    r.read_exact(&mut body).await?;
    Ok(Frame::Body(body))
}

/// The error reply a body gets instead of going to the server, or None when it is a
/// JSON-RPC message the server can decode.
pub fn refusal(body: &[u8]) -> Option<Value> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return Some(error_reply(Value::Null, PARSE_ERROR, &e.to_string())),
    };
    let readable = serde_json::from_value::<Request>(value.clone()).is_ok()
        || serde_json::from_value::<Response>(value.clone()).is_ok();
    if readable {
        return None;
    }
    let id = value
        .get("id")
        .filter(|id| id.is_number() || id.is_string())
        .cloned()
        .unwrap_or(Value::Null);
    Some(error_reply(
        id,
        INVALID_REQUEST,
        "not a JSON-RPC 2.0 request, notification or response",
    ))
}

fn error_reply(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// Serves `serve` (tower-lsp's server over the given pipe ends) behind the guard: frames
/// from `input` are checked and passed on, replies and server output go to `output`.
/// Returns when the server has finished (after `exit`, or when the input ended).
pub async fn guarded<I, O, F, Fut>(input: I, mut output: O, serve: F)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
    F: FnOnce(tokio::io::DuplexStream, tokio::io::DuplexStream) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let (mut to_server, server_in) = tokio::io::duplex(PIPE);
    let (server_out, from_server) = tokio::io::duplex(PIPE);
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    // The input side only holds a weak sender: the writer ends when the server's output does.
    let replies = tx.downgrade();

    let pass_input = async move {
        let mut input = BufReader::new(input);
        loop {
            let reply = match read_frame(&mut input).await {
                Ok(Frame::Body(body)) => match refusal(&body) {
                    None => {
                        if to_server.write_all(&frame(&body)).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Some(reply) => reply,
                },
                Ok(Frame::Bad(why)) => error_reply(Value::Null, PARSE_ERROR, &why),
                Ok(Frame::End) | Err(_) => break,
            };
            match replies.upgrade() {
                Some(tx) => {
                    let _ = tx.send(reply.to_string().into_bytes());
                }
                None => break,
            }
        }
        // The server sees the end of its input and finishes; this side waits for that.
        drop(to_server);
        std::future::pending::<()>().await;
    };

    let pass_output = async move {
        let mut from_server = BufReader::new(from_server);
        while let Ok(Frame::Body(body)) = read_frame(&mut from_server).await {
            if tx.send(body).is_err() {
                break;
            }
        }
    };

    let write = async move {
        while let Some(body) = rx.recv().await {
            if output.write_all(&frame(&body)).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    };

    let session = async {
        tokio::join!(serve(server_in, server_out), pass_output, write);
    };
    tokio::select! {
        _ = session => {}
        _ = pass_input => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Vec<Frame> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut r = BufReader::new(bytes);
            let mut out = Vec::new();
            loop {
                let f = read_frame(&mut r).await.unwrap();
                let end = f == Frame::End;
                out.push(f);
                if end {
                    return out;
                }
            }
        })
    }

    #[test]
    fn frames_are_read_and_bad_ones_named() {
        let frames = read(b"Content-Length: 2\r\n\r\n{}content-length:1\r\n\r\n[X-Other: 1\r\n\r\nContent-Length: x\r\n\r\n");
        assert_eq!(frames[0], Frame::Body(b"{}".to_vec()));
        assert_eq!(frames[1], Frame::Body(b"[".to_vec()));
        assert!(matches!(&frames[2], Frame::Bad(w) if w.contains("without Content-Length")));
        assert!(matches!(&frames[3], Frame::Bad(w) if w.contains("bad Content-Length")));
        assert_eq!(frames[4], Frame::End);
    }

    #[test]
    fn only_json_rpc_messages_pass() {
        let ok = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":null}"#,
        ];
        for m in ok {
            assert_eq!(refusal(m.as_bytes()), None, "{m}");
        }
        let parse = refusal(b"{not json").unwrap();
        assert_eq!(parse["error"]["code"], PARSE_ERROR);
        assert_eq!(parse["id"], Value::Null);
        let bad = refusal(br#"{"jsonrpc":"2.0","id":"x","method":7}"#).unwrap();
        assert_eq!(bad["error"]["code"], INVALID_REQUEST);
        assert_eq!(bad["id"], "x");
        assert!(refusal(b"[]").is_some());
        assert!(refusal(b"42").is_some());
    }
}
