//! The HTML document's output: rendered into a small buffer that is handed on, terminal
//! controls escaped, whenever it fills at a row boundary, so a report of 200,000 messages
//! never holds its whole text. It counts the characters it hands on, and while measuring
//! (the size budget, `budget.rs`) notes the length of the document at each row boundary.

use std::io::Write;
use std::ops::{Deref, DerefMut};

/// Bytes gathered before they are written out.
const CHUNK: usize = 64 * 1024;

/// A growing piece of the document and where it goes when it is full. Renderers write into
/// it as into a `String` and call [`Out::row_done`] between rows.
pub(super) struct Out<'w> {
    buf: String,
    dest: &'w mut dyn Write,
    error: Option<std::io::Error>,
    /// Characters handed on so far (as written: controls escaped).
    written: usize,
    /// While measuring: the document's length at each [`Out::row_done`].
    marks: Option<Vec<usize>>,
}

impl<'w> Out<'w> {
    /// An empty document written to `dest`.
    pub fn new(dest: &'w mut dyn Write) -> Self {
        Self {
            buf: String::with_capacity(CHUNK + CHUNK / 4),
            dest,
            error: None,
            written: 0,
            marks: None,
        }
    }

    /// A row (or another unit that may be large) is complete: hand the text on when the
    /// buffer is full. After a failed write nothing more is written.
    pub fn row_done(&mut self) {
        if self.marks.is_some() {
            self.flush();
            let at = self.written;
            self.marks.get_or_insert_default().push(at);
        } else if self.buf.len() >= CHUNK {
            self.flush();
        }
    }

    /// From now on, note the document's length at each row boundary.
    pub fn start_marks(&mut self) {
        self.flush();
        self.marks = Some(vec![self.written]);
    }

    /// The lengths noted since [`Out::start_marks`] (the first one: where it started), and
    /// the length now as the last one.
    pub fn take_marks(&mut self) -> Vec<usize> {
        self.flush();
        let mut marks = self.marks.take().unwrap_or_default();
        marks.push(self.written);
        marks
    }

    /// The document's length so far, in characters, as written.
    pub fn chars(&mut self) -> usize {
        self.flush();
        self.written
    }

    fn flush(&mut self) {
        if self.error.is_none() {
            let text = crate::text::escape_controls(&self.buf);
            self.written += text.chars().count();
            if let Err(e) = self.dest.write_all(text.as_bytes()) {
                self.error = Some(e);
            }
        }
        self.buf.clear();
    }

    /// Write what is left; the first write error, if any.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.flush();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Deref for Out<'_> {
    type Target = String;

    fn deref(&self) -> &String {
        &self.buf
    }
}

impl DerefMut for Out<'_> {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn large_documents_are_written_in_pieces_with_controls_escaped() {
        let mut dest: Vec<u8> = Vec::new();
        let mut out = Out::new(&mut dest);
        let mut expected = String::new();
        for i in 0..10_000 {
            let _ = writeln!(out, "<p>row {i} \u{1b}[2J</p>");
            let _ = writeln!(expected, "<p>row {i} \\e[2J</p>");
            out.row_done();
            assert!(out.len() < CHUNK + 64, "the buffer is emptied at row boundaries");
        }
        out.finish().unwrap();
        assert_eq!(String::from_utf8(dest).unwrap(), expected);
    }

    #[test]
    fn the_first_write_error_is_returned_and_nothing_more_is_written() {
        struct Full(usize);
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                self.0 += 1;
                Err(std::io::Error::from(std::io::ErrorKind::StorageFull))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut full = Full(0);
        let mut out = Out::new(&mut full);
        for _ in 0..1_000 {
            out.push_str(&"x".repeat(1_000));
            out.row_done();
        }
        let err = out.finish().unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::StorageFull);
        assert_eq!(full.0, 1);
    }
}
