//! OpenClaw's image handling: base64 checks, header parsing, decoding, resizing and
//! re-encoding, and the cache that processes each distinct oversized image once.

mod base64;
pub mod cache;
mod codec;
pub mod header;
pub mod ops;
pub mod resize;
mod search;

#[cfg(test)]
pub(crate) mod fixtures;
