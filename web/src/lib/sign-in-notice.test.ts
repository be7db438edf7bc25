import { clearSignInNotice, leaveSignInNotice, readSignInNotice, SIGN_IN_NOTICE_KEY } from './sign-in-notice';

describe('sign-in notice', () => {
  it('is read until it is cleared', () => {
    expect(readSignInNotice()).toBeNull();
    leaveSignInNotice('account_erased');
    expect(readSignInNotice()).toBe('account_erased');
    expect(readSignInNotice()).toBe('account_erased');
    clearSignInNotice();
    expect(readSignInNotice()).toBeNull();
  });

  it('ignores a value it does not know', () => {
    sessionStorage.setItem(SIGN_IN_NOTICE_KEY, 'something_else');
    expect(readSignInNotice()).toBeNull();
  });
});
