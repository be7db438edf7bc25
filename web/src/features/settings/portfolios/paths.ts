/** The portfolio pages' addresses; an existing portfolio is edited on the create page, by id. */
export const PORTFOLIOS_PATH = '/settings/portfolios';
export const CREATE_PORTFOLIO_PATH = '/settings/portfolios/create-portfolio';

/** Returns the address where the portfolio `id` is edited. */
export const editPortfolioPath = (id: string) => `${CREATE_PORTFOLIO_PATH}?id=${encodeURIComponent(id)}`;
