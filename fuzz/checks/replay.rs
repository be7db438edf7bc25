//! A short run of a fuzz check on the stable toolchain, for `cargo test` and CI: every seed
//! (`fuzz/seeds/<target>`) and every input a fuzzer once broke the code with
//! (`fuzz/regressions/<target>`), then a few thousand mutations of them. Coverage-guided runs
//! (libFuzzer, `scripts/fuzz`) go much further; this keeps what they found fixed and catches a
//! change that breaks the easy cases.
//!
//! `NEEDL_FUZZ_MUTATIONS` sets how many mutations (2,000 by default). A failing input is written
//! under the test's temporary folder and named in the failure.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

pub fn run(target: &str, check: fn(&[u8])) {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut inputs = files(&fuzz.join("seeds").join(target));
    let seeds = inputs.len();
    inputs.extend(files(&fuzz.join("regressions").join(target)));
    assert!(seeds > 0, "no seeds for {target} in {}", fuzz.join("seeds").display());
    for (path, bytes) in &inputs {
        run_one(target, &path.display().to_string(), bytes, check);
    }
    let mutations: usize = std::env::var("NEEDL_FUZZ_MUTATIONS").ok().and_then(|n| n.parse().ok()).unwrap_or(2_000);
    let mut rng =
        Rng(target.bytes().fold(0x9e37_79b9_7f4a_7c15, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)));
    for i in 0..mutations {
        let base = &inputs[rng.below(inputs.len())].1;
        let other = &inputs[rng.below(inputs.len())].1;
        let mutated = mutate(base, other, &mut rng);
        run_one(target, &format!("mutation {i}"), &mutated, check);
    }
}

fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return vec![] };
    let mut out: Vec<(PathBuf, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

fn run_one(target: &str, name: &str, bytes: &[u8], check: fn(&[u8])) {
    if catch_unwind(AssertUnwindSafe(|| check(bytes))).is_err() {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{target}-{}", name.replace(['/', ' '], "_")));
        std::fs::write(&path, bytes).unwrap();
        panic!(
            "the {target} check failed on {name}; the input is {} (once fixed, keep it in fuzz/regressions/{target})",
            path.display()
        );
    }
}

/// Pieces that make parsers take other paths than random bytes do.
const TOKENS: &[&[u8]] = &[
    b"<",
    b">",
    b"</",
    b"/>",
    b"\"",
    b"'",
    b"&amp;",
    b"&#x0;",
    b"<![CDATA[",
    b"]]>",
    b"<!DOCTYPE x [",
    b"[",
    b"]",
    b"[1]",
    b"[1-3]",
    b"[[2]]",
    b"(",
    b")",
    b" AND ",
    b" OR ",
    b" NOT ",
    b"\r\n",
    b"\n\n",
    b"data: ",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\xc3",
    b"%PDF-1.7\n",
    b"obj",
    b"endobj",
    b"stream\n",
    b"PK\x03\x04",
    b"\x00",
    b"{",
    b"}",
    b"\\u0000",
];

fn mutate(base: &[u8], other: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = base.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(6) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 if !out.is_empty() => {
                let end = (at + rng.below(64)).min(out.len());
                out.drain(at.min(end)..end);
            }
            2 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                out.splice(at..at, token.iter().copied());
            }
            3 if !out.is_empty() => {
                let start = rng.below(out.len());
                let end = (start + rng.below(128)).min(out.len());
                let copy = out[start..end].to_vec();
                out.splice(at..at, copy);
            }
            4 if !other.is_empty() => {
                let start = rng.below(other.len());
                let end = (start + rng.below(256)).min(other.len());
                out.splice(at..at, other[start..end].iter().copied());
            }
            _ => out.truncate(at),
        }
    }
    out
}

/// xorshift64*: a fixed sequence per target, so a failure repeats.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}
