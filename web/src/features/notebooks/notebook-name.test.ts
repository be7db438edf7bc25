import { CREATE_A_NOTEBOOK, NOTEBOOK_NAME_TOO_LONG } from './messages';
import { checkNotebookName } from './notebook-name';

describe('checkNotebookName', () => {
  it("refuses a blank name with the spec's words", () => {
    expect(checkNotebookName('')).toEqual({ ok: false, error: CREATE_A_NOTEBOOK });
    expect(checkNotebookName('   \t')).toEqual({ ok: false, error: 'Please create a Notebook' });
  });

  it('takes a name trimmed', () => {
    expect(checkNotebookName('  Research ')).toEqual({ ok: true, name: 'Research' });
  });

  it('takes up to 100 characters, counting characters rather than UTF-16 units', () => {
    expect(checkNotebookName('n'.repeat(100))).toEqual({ ok: true, name: 'n'.repeat(100) });
    expect(checkNotebookName('📓'.repeat(100)).ok).toBe(true);
    expect(checkNotebookName('n'.repeat(101))).toEqual({ ok: false, error: NOTEBOOK_NAME_TOO_LONG });
  });
});
