import { createActor } from 'xstate';
import { companySearchMachine, stepActive } from './company-search.machine';

const start = () => createActor(companySearchMachine).start();

describe('stepActive', () => {
  it('moves through the options and wraps round both ways', () => {
    expect(stepActive(-1, 3, 1)).toBe(0);
    expect(stepActive(2, 3, 1)).toBe(0);
    expect(stepActive(-1, 3, -1)).toBe(2);
    expect(stepActive(0, 3, -1)).toBe(2);
  });

  it('has nothing active without options, and starts again when the options shrank', () => {
    expect(stepActive(1, 0, 1)).toBe(-1);
    expect(stepActive(5, 2, 1)).toBe(0);
  });
});

describe('companySearchMachine', () => {
  it('opens the options when something is typed and closes them when the box is emptied', () => {
    const search = start();
    search.send({ type: 'company.type', text: 'app' });
    expect(search.getSnapshot().value).toBe('open');
    expect(search.getSnapshot().context).toEqual({ text: 'app', active: -1, picked: null });
    search.send({ type: 'company.type', text: '  ' });
    expect(search.getSnapshot().value).toBe('closed');
  });

  it('moves the active option with the arrow keys and picks it, keeping its CIK', () => {
    const search = start();
    search.send({ type: 'company.type', text: 'app' });
    search.send({ type: 'company.next', count: 2 });
    search.send({ type: 'company.next', count: 2 });
    expect(search.getSnapshot().context.active).toBe(1);
    search.send({ type: 'company.pick', cik: '0000320193', label: 'Apple Inc. · AAPL · CIK 320193' });
    expect(search.getSnapshot().value).toBe('closed');
    expect(search.getSnapshot().context).toEqual({ text: 'Apple Inc. · AAPL · CIK 320193', active: -1, picked: '0000320193' });
  });

  it('forgets the pick when the text is changed', () => {
    const search = start();
    search.send({ type: 'company.pick', cik: '0000320193', label: 'Apple Inc.' });
    search.send({ type: 'company.type', text: 'Apple Inc' });
    expect(search.getSnapshot().context.picked).toBeNull();
  });

  it('closes on the first Escape and clears on the second', () => {
    const search = start();
    search.send({ type: 'company.type', text: 'msft' });
    search.send({ type: 'company.next', count: 1 });
    search.send({ type: 'company.close' });
    expect(search.getSnapshot().value).toBe('closed');
    expect(search.getSnapshot().context).toEqual({ text: 'msft', active: -1, picked: null });
    search.send({ type: 'company.clear' });
    expect(search.getSnapshot().context.text).toBe('');
  });

  it('reopens the options of typed text on Arrow Down, but not those of a picked company or an empty box', () => {
    const search = start();
    search.send({ type: 'company.next', count: 3 });
    expect(search.getSnapshot().value).toBe('closed');
    search.send({ type: 'company.type', text: 'app' });
    search.send({ type: 'company.close' });
    search.send({ type: 'company.next', count: 3 });
    expect(search.getSnapshot().value).toBe('open');
    expect(search.getSnapshot().context.active).toBe(0);
    search.send({ type: 'company.pick', cik: '1', label: 'Apple Inc.' });
    search.send({ type: 'company.next', count: 3 });
    expect(search.getSnapshot().value).toBe('closed');
  });
});
