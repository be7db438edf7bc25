//! A local SEC EDGAR for the browser tests: `fake-edgar --port N` serves two companies (Apple
//! with an annual report and a current report with its press release, Microsoft with a
//! quarterly report) until it is stopped.

use testkit::edgar::{FakeCompany, FakeEdgar, FakeFiling};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut port: u16 = 18095;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => port = args.next().and_then(|p| p.parse().ok()).expect("--port takes a number"),
            other => panic!("unknown argument {other}: fake-edgar takes --port N"),
        }
    }
    let apple = vec![FakeFiling::numbered(320193, 2), FakeFiling::numbered(320193, 0)];
    let microsoft = vec![FakeFiling { period: "2024-09-30".into(), ..FakeFiling::numbered(789019, 1) }];
    let edgar = FakeEdgar::start_on(
        port,
        vec![
            FakeCompany::new(320193, "AAPL", "Apple Inc.", apple),
            FakeCompany::new(789019, "MSFT", "MICROSOFT CORP", microsoft),
        ],
    )
    .await;
    eprintln!("fake EDGAR at {}", edgar.url());
    std::future::pending::<()>().await;
}
