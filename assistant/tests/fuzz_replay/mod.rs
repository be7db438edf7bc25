//! The answer stream's fuzz check, run briefly on its seeds, past findings and mutations (see
//! `fuzz/checks/replay.rs`; `scripts/fuzz stream` runs it coverage-guided).

#[path = "../../../fuzz/checks/replay.rs"]
mod replay;
#[path = "../../../fuzz/checks/stream.rs"]
mod stream;

#[test]
fn the_answer_stream_reads_the_same_however_it_is_chunked() {
    replay::run("stream", stream::check);
}
