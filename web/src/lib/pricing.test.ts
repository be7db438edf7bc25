import { NOT_IN_PLAN, planCheck } from './pricing';

describe('planCheck', () => {
  it('allows everything when pricing is off, without asking the server', () => {
    expect(planCheck('add_notebook', false, undefined)).toEqual({ status: 'eligible' });
  });

  it("follows the server's eligibility when pricing is on", () => {
    expect(planCheck('add_notebook', true, { add_notebook: { isEligible: true } })).toEqual({ status: 'eligible' });
    expect(planCheck('add_notebook', true, { add_notebook: { isEligible: false, message: 'Upgrade to Pro to add notes' } })).toEqual({
      status: 'ineligible',
      message: 'Upgrade to Pro to add notes',
    });
  });

  it('waits for the answer, and takes a feature missing from it as not eligible', () => {
    expect(planCheck('add_notebook', true, undefined)).toEqual({ status: 'checking' });
    expect(planCheck('add_notebook', true, {})).toEqual({ status: 'ineligible', message: NOT_IN_PLAN });
  });

  it('throws on a key the spec does not name', () => {
    expect(() => planCheck('add_spaceship', false, undefined)).toThrow('unknown pricing feature key: add_spaceship');
  });
});
