#![no_main]

#[path = "../checks/keywords.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
