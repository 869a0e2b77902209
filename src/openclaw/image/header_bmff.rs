//! HEIF / AVIF headers (ISO-BMFF boxes), read as rastermill 0.3.3 reads them: the primary
//! item's `ispe` size and `irot`/`imir` orientation when the boxes tile the file, else the
//! largest `ispe` found in the usual container boxes.

use super::{dims, larger, u16_be, u32_be};

/// Brands that make an ISO-BMFF file an image (major, minor-version slot or compatible).
const IMAGE_BRANDS: [&[u8; 4]; 9] = [
    b"avif", b"avis", b"heic", b"heix", b"hevc", b"hevx", b"heif", b"mif1", b"msf1",
];

/// Boxes searched for `ispe` when the primary item cannot be read.
const CONTAINERS: [&[u8; 4]; 9] = [
    b"edts", b"ipco", b"iprp", b"mdia", b"meta", b"minf", b"moov", b"stbl", b"trak",
];

/// Largest size a 64-bit box size may have (JavaScript's safe integers).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The size of the box at `at`, within `end`; `None` (or 0) when unreadable.
fn box_size(b: &[u8], at: usize, end: usize) -> Option<usize> {
    if at + 8 > end {
        return None;
    }
    match u32_be(b, at)? {
        0 => Some(end - at),
        1 => {
            if at + 16 > end {
                return None;
            }
            let size = u64::from_be_bytes(b.get(at + 8..at + 16)?.try_into().ok()?);
            (size <= MAX_SAFE_INTEGER).then(|| usize::try_from(size).ok()).flatten()
        }
        size => Some(size as usize),
    }
}

/// Whether the `ftyp` box names one of `brands` (every 4-byte slot after the box header).
fn has_brand(b: &[u8], brands: &[&[u8; 4]]) -> bool {
    if b.len() < 16 || &b[4..8] != b"ftyp" {
        return false;
    }
    let Some(size) = box_size(b, 0, b.len()).filter(|&s| s >= 16 && s <= b.len()) else {
        return false;
    };
    (8..)
        .step_by(4)
        .take_while(|at| at + 4 <= size)
        .any(|at| brands.iter().any(|brand| &b[at..at + 4] == *brand))
}

/// Whether the file is an ISO-BMFF image.
fn is_image(b: &[u8]) -> bool {
    has_brand(b, &IMAGE_BRANDS)
}

/// Whether the file is AVIF.
pub(super) fn is_avif(b: &[u8]) -> bool {
    has_brand(b, &[b"avif", b"avis"])
}

fn find_ispe(b: &[u8], start: usize, end: usize, depth: u32) -> Option<(u32, u32)> {
    if depth > 8 {
        return None;
    }
    let mut at = start;
    let mut largest = None;
    while at + 8 <= end {
        let size = box_size(b, at, end).filter(|&s| s >= 8 && at + s <= end)?;
        let kind = &b[at + 4..at + 8];
        let data = at + if u32_be(b, at)? == 1 { 16 } else { 8 };
        let box_end = at + size;
        if kind == b"ispe" && data + 12 <= box_end {
            largest = larger(
                largest,
                dims(i64::from(u32_be(b, data + 4)?), i64::from(u32_be(b, data + 8)?)),
            );
        }
        if CONTAINERS.iter().any(|c| &c[..] == kind) {
            let child = if kind == b"meta" { data + 4 } else { data };
            largest = larger(largest, find_ispe(b, child, box_end, depth + 1));
        }
        at = box_end;
    }
    largest
}

/// The largest `ispe` size of an ISO-BMFF image.
pub(super) fn largest_ispe(b: &[u8]) -> Option<(u32, u32)> {
    if is_image(b) { find_ispe(b, 0, b.len(), 0) } else { None }
}

#[derive(Clone, Copy)]
struct Bx<'a> {
    kind: &'a [u8],
    data: usize,
    end: usize,
}

/// The boxes tiling `start..end` exactly, or `None`.
fn boxes(b: &[u8], start: usize, end: usize) -> Option<Vec<Bx<'_>>> {
    let mut out = Vec::new();
    let mut at = start;
    while at + 8 <= end {
        let header = if u32_be(b, at)? == 1 { 16 } else { 8 };
        let size = box_size(b, at, end).filter(|&s| s != 0 && s >= header && at + s <= end)?;
        out.push(Bx {
            kind: &b[at + 4..at + 8],
            data: at + header,
            end: at + size,
        });
        at += size;
    }
    (at == end).then_some(out)
}

fn find<'a>(list: &[Bx<'a>], kind: &[u8]) -> Option<Bx<'a>> {
    list.iter().find(|x| x.kind == kind).copied()
}

/// A full box's version, flags and payload start.
fn full_box(b: &[u8], x: Bx<'_>) -> Option<(u8, u32, usize)> {
    if x.data + 4 > x.end {
        return None;
    }
    let flags = u32::from(b[x.data + 1]) << 16 | u32::from(b[x.data + 2]) << 8 | u32::from(b[x.data + 3]);
    Some((b[x.data], flags, x.data + 4))
}

fn primary_item_id(b: &[u8], pitm: Bx<'_>) -> Option<u32> {
    let (version, _, payload) = full_box(b, pitm)?;
    match version {
        0 if payload + 2 <= pitm.end => u16_be(b, payload).map(u32::from),
        1 | 2 if payload + 4 <= pitm.end => u32_be(b, payload),
        _ => None,
    }
}

/// The property indices (1-based) an `ipma` box associates with the primary item.
fn associations(b: &[u8], ipma: Bx<'_>, primary: u32, out: &mut Vec<usize>) -> Option<()> {
    let (version, flags, payload) = full_box(b, ipma)?;
    if version > 1 || payload + 4 > ipma.end {
        return None;
    }
    let entries = u32_be(b, payload)?;
    let mut at = payload + 4;
    let id_bytes = if version == 0 { 2 } else { 4 };
    let wide = flags & 1 != 0;
    for _ in 0..entries {
        if at + id_bytes + 1 > ipma.end {
            return None;
        }
        let item = if id_bytes == 2 {
            u32::from(u16_be(b, at)?)
        } else {
            u32_be(b, at)?
        };
        at += id_bytes;
        let count = usize::from(b[at]);
        at += 1;
        if at + count * if wide { 2 } else { 1 } > ipma.end {
            return None;
        }
        for _ in 0..count {
            let index = if wide {
                let raw = u16_be(b, at)?;
                at += 2;
                usize::from(raw & 0x7fff)
            } else {
                let raw = b[at];
                at += 1;
                usize::from(raw & 0x7f)
            };
            if item == primary && index != 0 {
                out.push(index);
            }
        }
    }
    Some(())
}

/// A 2×2 orientation matrix, row-major.
type Matrix = [i32; 4];

const ROTATIONS: [Matrix; 4] = [[1, 0, 0, 1], [0, 1, -1, 0], [-1, 0, 0, -1], [0, -1, 1, 0]];

fn multiply(after: Matrix, before: Matrix) -> Matrix {
    [
        after[0] * before[0] + after[1] * before[2],
        after[0] * before[1] + after[1] * before[3],
        after[2] * before[0] + after[3] * before[2],
        after[2] * before[1] + after[3] * before[3],
    ]
}

/// The EXIF orientation a matrix stands for.
fn exif_of(m: Matrix) -> Option<u8> {
    Some(match m {
        [1, 0, 0, 1] => 1,
        [-1, 0, 0, 1] => 2,
        [-1, 0, 0, -1] => 3,
        [1, 0, 0, -1] => 4,
        [0, 1, 1, 0] => 5,
        [0, -1, 1, 0] => 6,
        [0, -1, -1, 0] => 7,
        [0, 1, -1, 0] => 8,
        _ => return None,
    })
}

/// The primary item's size and orientation.
#[derive(Debug, Clone, Copy)]
pub(super) struct PrimaryItem {
    /// Its `ispe` size.
    pub(super) size: (u32, u32),
    /// From its `irot` / `imir` properties, when it has any.
    pub(super) orientation: Option<u8>,
}

/// The primary item of an ISO-BMFF image whose boxes tile the file.
pub(super) fn primary_item(b: &[u8]) -> Option<PrimaryItem> {
    if !is_image(b) {
        return None;
    }
    let meta = find(&boxes(b, 0, b.len())?, b"meta")?;
    if meta.data + 4 > meta.end {
        return None;
    }
    let children = boxes(b, meta.data + 4, meta.end)?;
    let (pitm, iprp) = (find(&children, b"pitm")?, find(&children, b"iprp")?);
    let primary = primary_item_id(b, pitm);
    let containers = boxes(b, iprp.data, iprp.end)?;
    let ipco = find(&containers, b"ipco")?;
    let ipmas: Vec<Bx<'_>> = containers.iter().filter(|x| x.kind == b"ipma").copied().collect();
    let primary = primary?;
    if ipmas.is_empty() {
        return None;
    }
    let properties = boxes(b, ipco.data, ipco.end)?;
    let mut indices = Vec::new();
    for ipma in ipmas {
        associations(b, ipma, primary, &mut indices)?;
    }
    let mut size = None;
    let mut matrix: Matrix = [1, 0, 0, 1];
    let mut transformed = false;
    for index in indices {
        let Some(p) = properties.get(index - 1).filter(|p| p.data < p.end) else {
            continue;
        };
        let step = match p.kind {
            b"ispe" if p.data + 12 <= p.end => {
                if size.is_none() {
                    size = dims(i64::from(u32_be(b, p.data + 4)?), i64::from(u32_be(b, p.data + 8)?));
                }
                None
            }
            b"irot" => Some(ROTATIONS[usize::from(b[p.data] & 3)]),
            b"imir" => Some(if b[p.data] & 1 != 0 {
                [-1, 0, 0, 1]
            } else {
                [1, 0, 0, -1]
            }),
            _ => None,
        };
        if let Some(step) = step {
            matrix = multiply(step, matrix);
            transformed = true;
        }
    }
    Some(PrimaryItem {
        size: size?,
        orientation: if transformed { exif_of(matrix) } else { None },
    })
}
