//! Files made by hand for the readers' tests (`tests/hostile.rs`, `tests/fuzz_readers.rs`): a
//! zip archive whose entries are stored as given, and `.npy` arrays whose header says anything.
#![allow(dead_code)]

/// CRC-32 (IEEE), as zip stores it.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// A zip archive of `entries` stored uncompressed: what `numpy.savez` writes, made by hand so
/// that an array's header can say anything (a shape its data does not have, an object dtype).
pub fn stored_zip(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    let le16 = |v: &mut Vec<u8>, x: u16| v.extend(x.to_le_bytes());
    let le32 = |v: &mut Vec<u8>, x: u32| v.extend(x.to_le_bytes());
    for (name, data) in entries {
        let (offset, crc, len) = (out.len() as u32, crc32(data), data.len() as u32);
        le32(&mut out, 0x0403_4b50);
        for x in [20, 0, 0, 0, 0x21] {
            le16(&mut out, x); // version, flags, stored, time, date (1980-01-01)
        }
        for x in [crc, len, len] {
            le32(&mut out, x);
        }
        le16(&mut out, name.len() as u16);
        le16(&mut out, 0);
        out.extend(name.as_bytes());
        out.extend(data);
        le32(&mut central, 0x0201_4b50);
        for x in [20, 20, 0, 0, 0, 0x21] {
            le16(&mut central, x);
        }
        for x in [crc, len, len] {
            le32(&mut central, x);
        }
        for x in [name.len() as u16, 0, 0, 0, 0] {
            le16(&mut central, x);
        }
        le32(&mut central, 0);
        le32(&mut central, offset);
        central.extend(name.as_bytes());
    }
    let (at, size, n) = (out.len() as u32, central.len() as u32, entries.len() as u16);
    out.extend(central);
    le32(&mut out, 0x0605_4b50);
    for x in [0, 0, n, n] {
        le16(&mut out, x);
    }
    le32(&mut out, size);
    le32(&mut out, at);
    le16(&mut out, 0);
    out
}

/// A `.npy` file with a header of `descr` and `shape` (e.g. `(20000, 20000)`) and `data`.
pub fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}
