//! How much of a file has been read, for progress bars: a callback told the byte count
//! about every MiB while a session is read.

use std::fmt;
use std::io::Read;
use std::sync::Arc;

/// Bytes read between two reports.
const STEP: u64 = 1 << 20;

/// A callback told how many bytes of the file have been read so far.
#[derive(Clone)]
pub struct Progress(Arc<dyn Fn(u64) + Send + Sync>);

impl Progress {
    /// Wrap a callback.
    pub fn new(report: impl Fn(u64) + Send + Sync + 'static) -> Self {
        Self(Arc::new(report))
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Progress(..)")
    }
}

/// A reader that reports its byte count to a [`Progress`] about every MiB and at the end.
pub struct ProgressReader<R> {
    inner: R,
    read: u64,
    reported: u64,
    progress: Option<Progress>,
}

impl<R: Read> ProgressReader<R> {
    /// Count what `inner` gives; report to `progress` when there is one.
    pub fn new(inner: R, progress: Option<Progress>) -> Self {
        Self {
            inner,
            read: 0,
            reported: 0,
            progress,
        }
    }
}

impl<R: Read> Read for ProgressReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if let Some(p) = &self.progress
            && (self.read - self.reported >= STEP || n == 0)
            && self.read != self.reported
        {
            self.reported = self.read;
            (p.0)(self.read);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn reports_about_every_mib_and_the_end() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let progress = Progress::new(move |n| log.lock().unwrap().push(n));
        let data = vec![7u8; (5 << 20) / 2];
        let mut reader = ProgressReader::new(&data[..], Some(progress));
        let mut sink = Vec::new();
        std::io::copy(&mut reader, &mut sink).unwrap();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.last(), Some(&(data.len() as u64)));
        assert!(seen.len() >= 2 && seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    }
}
