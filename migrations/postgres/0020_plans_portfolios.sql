-- The plan an administrator assigned (domain::plan); NULL is the default plan.
ALTER TABLE users_view ADD COLUMN plan TEXT;

-- Each user's portfolios: named lists of holdings (company, ISIN, quantity), kept as the JSON
-- array the last PortfolioSaved event carried. Only the owner reads them.
CREATE TABLE portfolios_view
(
    portfolio_id TEXT NOT NULL PRIMARY KEY,
    user_id      TEXT NOT NULL,
    name         TEXT NOT NULL,
    holdings     TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX portfolios_view_user ON portfolios_view (user_id, updated_at);
