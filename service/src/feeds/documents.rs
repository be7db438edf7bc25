//! A feed's documents and a draft's preview, through the search index.

use domain::board::BoardDefinition;

use crate::error::Result;

/// Checks that a definition's filters hold together.
pub fn filters(_definition: &BoardDefinition) -> Result<()> {
    Ok(())
}
