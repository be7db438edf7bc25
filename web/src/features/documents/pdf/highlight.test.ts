import type { DocumentLayout } from '../api/document-api';
import { boxStyle, findHighlight, highlightFromParams } from './highlight';

const layout: DocumentLayout = {
  pages: [
    { number: 1, width: 600, height: 800, blocks: [{ text: 'Annual report 2024', bbox: [50, 40, 300, 60] }] },
    {
      number: 2,
      width: 600,
      height: 800,
      blocks: [
        { text: 'Revenue grew by 12%\nin the third', bbox: [50, 100, 550, 140] },
        { text: 'quarter, led by exports.', bbox: [50, 140, 400, 160] },
        { text: 'Costs were flat.', bbox: [50, 200, 300, 220] },
      ],
    },
  ],
};

describe('highlightFromParams', () => {
  it('reads the page and a box of four numbers from the address', () => {
    expect(highlightFromParams(new URLSearchParams('page=2&bbox=50,100.5,550,160'))).toEqual({
      page: 2,
      bbox: [50, 100.5, 550, 160],
    });
  });

  it('ignores a missing or malformed page or box', () => {
    for (const query of ['bbox=1,2,3,4', 'page=0&bbox=1,2,3,4', 'page=1&bbox=1,2,3', 'page=1&bbox=a,2,3,4', 'page=1&bbox=5,2,3,4', 'page=1&bbox=1,,3,4']) {
      expect(highlightFromParams(new URLSearchParams(query))).toBeNull();
    }
  });
});

describe('findHighlight', () => {
  it('finds a passage in one block, ignoring case and whitespace', () => {
    expect(findHighlight(layout, '  COSTS were\tflat ')).toEqual({ page: 2, bbox: [50, 200, 300, 220] });
  });

  it('joins the boxes of a passage that crosses blocks', () => {
    expect(findHighlight(layout, 'in the third quarter, led by')).toEqual({ page: 2, bbox: [50, 100, 550, 160] });
  });

  it('returns null for text that is not there, or no text', () => {
    expect(findHighlight(layout, 'dividends')).toBeNull();
    expect(findHighlight(layout, '  ')).toBeNull();
  });
});

describe('boxStyle', () => {
  it('places the box as percentages of the page', () => {
    expect(boxStyle([60, 200, 300, 400], 600, 800)).toEqual({ left: '10%', top: '25%', width: '40%', height: '25%' });
  });
});
