#![no_main]

#[path = "../checks/pdf.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
