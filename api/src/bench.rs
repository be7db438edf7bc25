//! Benchmarks: figures, not pass/fail.

use clap::Args;

use crate::config::StorageArgs;

#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Commands per measurement.
    #[arg(long, default_value_t = 2000)]
    pub commands: usize,
}

pub async fn run(_storage: &StorageArgs, _args: BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("benchmarks are not built yet")
}
