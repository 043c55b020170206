//! Float checkpoints: parameters and optimiser state in a small binary file of our own, so that a
//! run can be exported again or continued.
//!
//! Layout, little-endian: magic `XQTRAIN1` (8 bytes); first-layer rows (1260 for a plain net,
//! 2520 with threat inputs, 8820 with six king buckets and 12,600 with nine, each with the
//! shared part), hidden (u32 each); optimiser steps
//! (u64); epochs done (u32); λ (f32); validation loss (f32, NaN if unknown); reserved (u32, zero);
//! parameter count N (u64); FNV-1a 64 of the body (u64); body: N parameters, N first moments, N
//! second moments (f32 each, parameter layout of `net.rs`).

use super::adamw::AdamW;
use super::net::{H, Layout};
use std::path::Path;
use xq::nnue::format::fnv1a_64;

const MAGIC: &[u8; 8] = b"XQTRAIN1";
const HEADER: usize = 56;

/// Everything needed to export a net or continue training.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Parameters, flat (`net.rs` layout).
    pub params: Vec<f32>,
    /// Optimiser state.
    pub opt: AdamW,
    /// Epochs trained so far (over all resumed runs).
    pub epochs: u32,
    /// λ of the run that wrote it (for information).
    pub lambda: f32,
    /// Validation loss of these parameters, NaN if unknown.
    pub valid_loss: f32,
}

impl Checkpoint {
    /// Serialises the checkpoint.
    pub fn to_bytes(&self) -> Vec<u8> {
        let layout = Layout::of_len(self.params.len());
        let mut body = Vec::with_capacity(3 * 4 * self.params.len());
        for x in self.params.iter().chain(&self.opt.m).chain(&self.opt.v) {
            body.extend_from_slice(&x.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(layout.rows() as u32).to_le_bytes());
        out.extend_from_slice(&(H as u32).to_le_bytes());
        out.extend_from_slice(&self.opt.t.to_le_bytes());
        out.extend_from_slice(&self.epochs.to_le_bytes());
        out.extend_from_slice(&self.lambda.to_le_bytes());
        out.extend_from_slice(&self.valid_loss.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(self.params.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a_64(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Parses a checkpoint, checking magic, sizes and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < HEADER {
            return Err(format!(
                "{} bytes: too short for a checkpoint header",
                bytes.len()
            ));
        }
        if &bytes[..8] != MAGIC {
            return Err("not a trainer checkpoint (magic is not XQTRAIN1)".to_string());
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let u64_at = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(b)
        };
        let (rows, hidden) = (u32_at(8), u32_at(12));
        let layout = Layout::ALL
            .into_iter()
            .find(|l| l.rows() == rows as usize)
            .filter(|_| hidden as usize == H)
            .ok_or_else(|| {
                format!(
                    "checkpoint is for {rows} first-layer rows x {hidden} hidden, this build trains {}, {}, {} or {} x {H}",
                    Layout::PLAIN.rows(),
                    Layout::MIRRORED.rows(),
                    Layout::PALACE.rows(),
                    Layout::THREATS.rows()
                )
            })?;
        let n_params = layout.n_params();
        let n = u64_at(40);
        if n != n_params as u64 {
            return Err(format!(
                "checkpoint holds {n} parameters, expected {n_params}"
            ));
        }
        let body = &bytes[HEADER..];
        if body.len() != 3 * 4 * n_params {
            return Err(format!(
                "checkpoint body is {} bytes, expected {}",
                body.len(),
                3 * 4 * n_params
            ));
        }
        if fnv1a_64(body) != u64_at(48) {
            return Err("checkpoint checksum mismatch (file corrupted)".to_string());
        }
        let floats: Vec<f32> = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let (params, rest) = floats.split_at(n_params);
        let (m, v) = rest.split_at(n_params);
        if params.iter().any(|x| !x.is_finite()) {
            return Err("checkpoint parameters are not all finite".to_string());
        }
        Ok(Checkpoint {
            params: params.to_vec(),
            opt: AdamW {
                m: m.to_vec(),
                v: v.to_vec(),
                t: u64_at(16),
            },
            epochs: u32_at(24),
            lambda: f32::from_bits(u32_at(28)),
            valid_loss: f32::from_bits(u32_at(32)),
        })
    }

    /// Reads a checkpoint file.
    pub fn read(path: &Path) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes a checkpoint file (through a temporary file, so a crash leaves the old one).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, &self.to_bytes())
    }
}

/// Writes `bytes` to `path` via `path.tmp` and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::net;

    #[test]
    fn round_trip_and_corruption() {
        for layout in Layout::ALL {
            round_trip(layout);
        }
    }

    fn round_trip(layout: Layout) {
        let n = layout.n_params();
        let mut opt = AdamW::new(n);
        opt.t = 17;
        opt.m[5] = 0.25;
        opt.v[n - 1] = 3.0;
        let c = Checkpoint {
            params: net::init_with(3, layout),
            opt,
            epochs: 4,
            lambda: 0.4,
            valid_loss: 0.031,
        };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes), Ok(c));
        for at in [0, 9, 41, 48, 100, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(Checkpoint::from_bytes(&bad).is_err(), "byte {at}");
        }
        for len in [0, 10, HEADER, bytes.len() - 4] {
            assert!(
                Checkpoint::from_bytes(&bytes[..len]).is_err(),
                "length {len}"
            );
        }
    }
}
