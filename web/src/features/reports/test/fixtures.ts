import type { ReportDetail, ReportTypeConfig } from '../api/report-api';

export const typeConfig = (overrides: Partial<ReportTypeConfig> = {}): ReportTypeConfig => ({
  report_type: 'drhp_report',
  shown_as: 'drhp_report',
  label: 'Draft offering document',
  file_count_limit: 5,
  file_size_limit: 50 * 1_048_576,
  file_types: ['pdf', 'txt'],
  allow_folder_upload: false,
  sections: ['Offer structure'],
  ...overrides,
});

/** A completed report with one cited passage on page 2 of a PDF. */
export const completedReport = (overrides: Partial<ReportDetail> = {}): ReportDetail => ({
  id: 'r1',
  status: 'COMPLETED',
  report_type: 'initiation_coverage',
  name: 'Acme initiation',
  result: {
    title: 'Acme initiation',
    content: '## Company overview\n\nAcme makes anvils. [1]\n\n## Sources\n\n1. Annual report, page 2',
    error: null,
    error_message: null,
    raw_data: {
      sections: [],
      citations: [
        { number: 1, deeplink: 'doc-1', title: 'Annual report', source_id: 'needldrive', page: 2, boxes: [[10, 20, 110, 40], [10, 40, 90, 60]], text: 'Acme makes anvils.' },
      ],
    },
    time_taken: 90,
  },
  payload: { documents: [{ id: 'f1', object_location: null, status: 'COMPLETED', size: 10, metadata: { fileName: 'annual.pdf', guid: 'doc-1' } }] },
  sections: [{ index: 0, heading: 'Company overview', status: 'COMPLETED' }],
  rating: null,
  comments: null,
  ...overrides,
});
