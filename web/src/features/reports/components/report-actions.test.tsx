import { onNotice, type Notice } from '../../../lib/notices';
import { downloadRawData } from './report-actions';

describe('downloading the raw data', () => {
  it('says there is no response to download when the report has no result', () => {
    const notices: Notice[] = [];
    const stop = onNotice((n) => notices.push(n));
    downloadRawData(null);
    stop();
    expect(notices.map((n) => n.message)).toEqual(['No response available to download']);
  });
});
