import { keysInvalidatedBy } from './live-events';
import { reportKeys } from './queries/report-keys';

describe('report live events', () => {
  it('refresh the report list and the report a report event names', () => {
    expect(keysInvalidatedBy({ type: 'ReportSectionCompleted', ids: ['r1'] })).toEqual([reportKeys.list(), reportKeys.report('r1')]);
    expect(keysInvalidatedBy({ type: 'ReportCompleted', ids: [] })).toEqual([reportKeys.list()]);
  });

  it('treat a progress message as a hint to refetch that report only', () => {
    expect(keysInvalidatedBy({ type: 'report.progress', report_id: 'r1' })).toEqual([reportKeys.report('r1')]);
    expect(keysInvalidatedBy({ type: 'report.progress' })).toEqual([]);
  });
});
