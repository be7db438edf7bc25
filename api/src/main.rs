use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    api::cli::run(api::config::Cli::parse()).await
}
