/**
 * The PDF export of a report chat: the browser's print dialog (Save as PDF), with the document
 * titled 'AskNeedl' and the date ('AskNeedl 5th Mar 2024'), 500 ms after asking, so the page
 * has settled. Needs at least 2 messages.
 */
export const PRINT_DELAY_MS = 500;
export const MIN_PRINT_MESSAGES = 2;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Returns the day with its English ordinal suffix (1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st). */
export function ordinal(day: number): string {
  const teens = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teens ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th';
  return `${day}${suffix}`;
}

/** Returns the printed document's title: 'AskNeedl 5th Mar 2024'. */
export const printTitle = (date: Date): string => `AskNeedl ${ordinal(date.getDate())} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;

/** Opens the print dialog after the delay under the dated title, and puts the page's title back afterwards. */
export function printChat(now: Date = new Date(), win: Window = window): void {
  const before = win.document.title;
  win.setTimeout(() => {
    win.document.title = printTitle(now);
    win.print();
    win.document.title = before;
  }, PRINT_DELAY_MS);
}
