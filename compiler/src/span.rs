//! Byte-offset spans into a source text.

use std::fmt;
use std::ops::Range;

/// A half-open byte range `start..end` into a source text.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end.max(start) as u32,
        }
    }

    pub fn empty(at: usize) -> Span {
        Span::new(at, at)
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn contains(self, offset: usize) -> bool {
        (self.start as usize) <= offset && offset < (self.end as usize)
    }

    /// Whether `inner` lies wholly within this span.
    pub fn covers(self, inner: Span) -> bool {
        self.start <= inner.start && inner.end <= self.end
    }

    /// Like `contains`, but an offset just past the end also counts (a cursor after a token).
    pub fn touches(self, offset: usize) -> bool {
        (self.start as usize) <= offset && offset <= (self.end as usize)
    }

    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Moves the span by `delta` bytes (used to rebase item-relative spans).
    pub fn shift(self, delta: i64) -> Span {
        Span {
            start: (self.start as i64 + delta).max(0) as u32,
            end: (self.end as i64 + delta).max(0) as u32,
        }
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}
