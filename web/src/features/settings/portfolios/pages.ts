/**
 * Portfolios, a part of the settings feature: the user's portfolios (a name and holdings, each a
 * company, its ISIN and a quantity) listed at /settings/portfolios, and created or edited at
 * /settings/portfolios/create-portfolio (`?id=` edits); the pulse variant's /pulse/update-portfolio
 * creates or edits one with the same form. The browser checks what the server checks
 * (isin.ts, holdings-draft.ts) and shows the server's row-numbered refusals beside the row.
 * Server data lives in React Query under `portfolioQueries`. This file is the entry the app
 * loads on demand.
 * Depends on: src/lib, src/components/ui, and the settings feature's own tabs.
 */
export { PortfoliosPage } from './components/portfolios-page';
export { PortfolioEditorPage } from './components/portfolio-editor-page';
export { UpdatePortfolioPage } from './components/update-portfolio-page';
