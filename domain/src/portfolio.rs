//! Portfolios: a user's named lists of holdings (company, ISIN, quantity). Only the owner reads
//! or changes one; its companies are names AI feeds can watch.
//!
//! The aggregate id is the portfolio's id. Each change carries the whole portfolio, so a reader
//! needs no earlier event. Every row is checked before anything is recorded, and a refusal names
//! the row (1-based, as a person counts the rows of a form).

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// The longest portfolio name, in characters.
pub const MAX_PORTFOLIO_NAME_CHARS: usize = 100;
/// The longest company name, in characters.
pub const MAX_COMPANY_CHARS: usize = 200;
/// How many holdings one portfolio holds.
pub const MAX_HOLDINGS: usize = 500;
/// How many decimal places a quantity may have (fractional shares and fund units).
pub const MAX_QUANTITY_DECIMALS: u32 = 6;

/// One position: a company by name and ISIN, and how much of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Holding {
    pub company: String,
    /// Upper case, 12 characters, with a valid check digit.
    pub isin: String,
    pub quantity: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PortfolioCommand {
    Create {
        owner: String,
        name: String,
        holdings: Vec<Holding>,
    },
    /// Replaces the name and every holding.
    Update {
        actor: String,
        name: String,
        holdings: Vec<Holding>,
    },
    Delete {
        actor: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PortfolioEvent {
    PortfolioCreated { owner: String, name: String, holdings: Vec<Holding> },
    PortfolioUpdated { owner: String, name: String, holdings: Vec<Holding> },
    PortfolioDeleted { owner: String },
}

crate::impl_domain_event! {
    PortfolioEvent, versions {
        PortfolioCreated: "1",
        PortfolioUpdated: "1",
        PortfolioDeleted: "1",
    }
}

/// Why an ISIN is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IsinFault {
    /// Not 12 characters of two letters, nine letters or digits, and a digit.
    Shape,
    /// The last digit is not the check digit of the first eleven characters.
    CheckDigit,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PortfolioError {
    #[error("give the portfolio a name")]
    NameRequired,
    #[error("a portfolio name must be at most {MAX_PORTFOLIO_NAME_CHARS} characters")]
    NameTooLong,
    #[error("a portfolio holds at most {MAX_HOLDINGS} holdings")]
    TooManyHoldings,
    #[error("Row {0} needs a company name of at most {MAX_COMPANY_CHARS} characters.")]
    CompanyRequired(usize),
    #[error("Row {row}: {isin} is not a valid ISIN ({}).", match fault {
        IsinFault::Shape => "an ISIN is two letters, nine letters or digits and a check digit",
        IsinFault::CheckDigit => "the check digit does not match",
    })]
    InvalidIsin { row: usize, isin: String, fault: IsinFault },
    #[error("Row {row} repeats {isin}.")]
    DuplicateIsin { row: usize, isin: String },
    #[error("Row {0} needs a quantity above zero with at most {MAX_QUANTITY_DECIMALS} decimal places.")]
    InvalidQuantity(usize),
    #[error("portfolio not found")]
    NotFound,
}

impl DomainError for PortfolioError {
    fn kind(&self) -> ErrorKind {
        match self {
            PortfolioError::NotFound => ErrorKind::NotFound,
            _ => ErrorKind::Invalid,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            PortfolioError::NameRequired => "portfolio_name_required",
            PortfolioError::NameTooLong => "portfolio_name_too_long",
            PortfolioError::TooManyHoldings => "too_many_holdings",
            PortfolioError::CompanyRequired(_) => "holding_company_required",
            PortfolioError::InvalidIsin { .. } => "invalid_isin",
            PortfolioError::DuplicateIsin { .. } => "duplicate_isin",
            PortfolioError::InvalidQuantity(_) => "invalid_quantity",
            PortfolioError::NotFound => "portfolio_not_found",
        }
    }
}

/// Checks an ISIN (ISO 6166), already trimmed and upper-cased: two letters, nine letters or
/// digits, and a check digit. Letters count as two digits (A = 10 ... Z = 35); over the digits
/// that gives, doubling every second digit from the right (the check digit's neighbour first)
/// and summing the digits of the results (Luhn), the check digit makes the sum a multiple of ten.
pub fn check_isin(isin: &str) -> Result<(), IsinFault> {
    let bytes = isin.as_bytes();
    let shaped = bytes.len() == 12
        && bytes[..2].iter().all(u8::is_ascii_uppercase)
        && bytes[2..11].iter().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && bytes[11].is_ascii_digit();
    if !shaped {
        return Err(IsinFault::Shape);
    }
    let mut digits = Vec::with_capacity(22);
    for &b in &bytes[..11] {
        if b.is_ascii_digit() {
            digits.push(u32::from(b - b'0'));
        } else {
            let value = u32::from(b - b'A') + 10;
            digits.push(value / 10);
            digits.push(value % 10);
        }
    }
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 0 {
                let doubled = d * 2;
                doubled / 10 + doubled % 10
            } else {
                d
            }
        })
        .sum();
    let check = (10 - sum % 10) % 10;
    if u32::from(bytes[11] - b'0') == check {
        Ok(())
    } else {
        Err(IsinFault::CheckDigit)
    }
}

/// Whether `quantity` is above zero, finite, and has at most [`MAX_QUANTITY_DECIMALS`] decimal
/// places (as a person typed it: judged on its shortest decimal form).
fn valid_quantity(quantity: f64) -> bool {
    if !quantity.is_finite() || quantity <= 0.0 || quantity > 1e15 {
        return false;
    }
    let text = quantity.to_string();
    text.split_once('.').is_none_or(|(_, fraction)| fraction.len() <= MAX_QUANTITY_DECIMALS as usize)
}

/// Returns the name and holdings as they are kept (trimmed; ISINs upper-cased), or the first
/// row at fault.
pub fn clean(name: &str, holdings: Vec<Holding>) -> Result<(String, Vec<Holding>), PortfolioError> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err(PortfolioError::NameRequired);
    }
    if name.chars().count() > MAX_PORTFOLIO_NAME_CHARS {
        return Err(PortfolioError::NameTooLong);
    }
    if holdings.len() > MAX_HOLDINGS {
        return Err(PortfolioError::TooManyHoldings);
    }
    let mut kept: Vec<Holding> = Vec::with_capacity(holdings.len());
    for (index, holding) in holdings.into_iter().enumerate() {
        let row = index + 1;
        let company = holding.company.split_whitespace().collect::<Vec<_>>().join(" ");
        if company.is_empty() || company.chars().count() > MAX_COMPANY_CHARS {
            return Err(PortfolioError::CompanyRequired(row));
        }
        let isin: String = holding.isin.trim().to_ascii_uppercase();
        if let Err(fault) = check_isin(&isin) {
            let shown: String = isin.chars().take(24).collect();
            return Err(PortfolioError::InvalidIsin { row, isin: shown, fault });
        }
        if kept.iter().any(|h| h.isin == isin) {
            return Err(PortfolioError::DuplicateIsin { row, isin });
        }
        if !valid_quantity(holding.quantity) {
            return Err(PortfolioError::InvalidQuantity(row));
        }
        kept.push(Holding { company, isin, quantity: holding.quantity });
    }
    Ok((name, kept))
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Portfolio {
    owner: Option<String>,
    deleted: bool,
}

impl Portfolio {
    pub fn decide(&self, command: PortfolioCommand) -> Result<Vec<PortfolioEvent>, PortfolioError> {
        match command {
            PortfolioCommand::Create { owner, name, holdings } => {
                if self.owner.is_some() {
                    // Ids are fresh UUIDs: a second create is a retry of the first.
                    return Ok(vec![]);
                }
                let (name, holdings) = clean(&name, holdings)?;
                Ok(vec![PortfolioEvent::PortfolioCreated { owner, name, holdings }])
            }
            PortfolioCommand::Update { actor, name, holdings } => {
                let owner = self.owned_by(&actor)?;
                let (name, holdings) = clean(&name, holdings)?;
                Ok(vec![PortfolioEvent::PortfolioUpdated { owner, name, holdings }])
            }
            PortfolioCommand::Delete { actor } => {
                let owner = self.owned_by(&actor)?;
                Ok(vec![PortfolioEvent::PortfolioDeleted { owner }])
            }
        }
    }

    /// The owner, when `actor` is the owner of a portfolio that exists; anyone else is told it
    /// does not exist.
    fn owned_by(&self, actor: &str) -> Result<String, PortfolioError> {
        match &self.owner {
            Some(owner) if owner == actor && !self.deleted => Ok(owner.clone()),
            _ => Err(PortfolioError::NotFound),
        }
    }
}

impl Aggregate for Portfolio {
    const TYPE: &'static str = "portfolio";
    type Command = PortfolioCommand;
    type Event = PortfolioEvent;
    type Error = PortfolioError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            PortfolioEvent::PortfolioCreated { owner, .. } => self.owner = Some(owner),
            PortfolioEvent::PortfolioUpdated { .. } => {}
            PortfolioEvent::PortfolioDeleted { .. } => self.deleted = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    type PortfolioTest = TestFramework<Portfolio>;

    fn holding(company: &str, isin: &str, quantity: f64) -> Holding {
        Holding { company: company.into(), isin: isin.into(), quantity }
    }

    fn created() -> PortfolioEvent {
        PortfolioEvent::PortfolioCreated {
            owner: "ann".into(),
            name: "Core".into(),
            holdings: vec![holding("Apple Inc.", "US0378331005", 10.0)],
        }
    }

    #[test]
    fn real_isins_pass_and_a_wrong_check_digit_or_shape_fails() {
        for isin in ["US0378331005", "GB0002634946", "DE000BAY0017", "AU0000XVGZA3", "INE002A01018"] {
            assert_eq!(check_isin(isin), Ok(()), "{isin}");
        }
        assert_eq!(check_isin("US0378331006"), Err(IsinFault::CheckDigit));
        assert_eq!(check_isin("DE000BAY0018"), Err(IsinFault::CheckDigit));
        for bad in ["US037833100", "US03783310055", "1S0378331005", "US037833100X", "us0378331005", ""] {
            assert_eq!(check_isin(bad), Err(IsinFault::Shape), "{bad}");
        }
    }

    #[test]
    fn rows_are_cleaned_and_the_first_fault_names_its_row() {
        let (name, kept) = clean("  Core   holdings ", vec![holding(" Apple  Inc. ", " us0378331005 ", 1.5)]).unwrap();
        assert_eq!(name, "Core holdings");
        assert_eq!(kept, vec![holding("Apple Inc.", "US0378331005", 1.5)]);

        let rows = vec![holding("Apple", "US0378331005", 1.0), holding("Bayer", "DE000BAY0018", 2.0)];
        let error = clean("Core", rows).unwrap_err();
        assert_eq!(error.code(), "invalid_isin");
        assert_eq!(error.to_string(), "Row 2: DE000BAY0018 is not a valid ISIN (the check digit does not match).");

        let twice = vec![holding("Apple", "US0378331005", 1.0), holding("Apple again", "us0378331005", 2.0)];
        assert_eq!(clean("Core", twice).unwrap_err().to_string(), "Row 2 repeats US0378331005.");
        for quantity in [0.0, -1.0, f64::NAN, f64::INFINITY, 0.1234567] {
            let error = clean("Core", vec![holding("Apple", "US0378331005", quantity)]).unwrap_err();
            assert_eq!(error, PortfolioError::InvalidQuantity(1), "{quantity}");
        }
        assert!(clean("Core", vec![holding("Apple", "US0378331005", 0.123456)]).is_ok());
        assert_eq!(clean("Core", vec![holding("  ", "US0378331005", 1.0)]), Err(PortfolioError::CompanyRequired(1)));
        assert_eq!(clean(" ", vec![]), Err(PortfolioError::NameRequired));
        assert_eq!(clean(&"n".repeat(101), vec![]), Err(PortfolioError::NameTooLong));
        let many = vec![holding("Apple", "US0378331005", 1.0); MAX_HOLDINGS + 1];
        assert_eq!(clean("Core", many), Err(PortfolioError::TooManyHoldings));
    }

    #[test]
    fn only_the_owner_changes_or_deletes_a_portfolio() {
        let update = |actor: &str| PortfolioCommand::Update {
            actor: actor.into(),
            name: "Renamed".into(),
            holdings: vec![holding("Apple Inc.", "US0378331005", 12.0)],
        };
        PortfolioTest::with(()).given(vec![created()]).when(update("ann")).then_expect_events(vec![
            PortfolioEvent::PortfolioUpdated {
                owner: "ann".into(),
                name: "Renamed".into(),
                holdings: vec![holding("Apple Inc.", "US0378331005", 12.0)],
            },
        ]);
        PortfolioTest::with(()).given(vec![created()]).when(update("bob")).then_expect_error(PortfolioError::NotFound);
        PortfolioTest::with(())
            .given_no_previous_events()
            .when(update("ann"))
            .then_expect_error(PortfolioError::NotFound);
        let deleted = vec![created(), PortfolioEvent::PortfolioDeleted { owner: "ann".into() }];
        PortfolioTest::with(()).given(deleted.clone()).when(update("ann")).then_expect_error(PortfolioError::NotFound);
        PortfolioTest::with(())
            .given(deleted)
            .when(PortfolioCommand::Delete { actor: "ann".into() })
            .then_expect_error(PortfolioError::NotFound);
    }
}
