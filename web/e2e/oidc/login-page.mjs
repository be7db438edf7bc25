// The test provider's login form: pick an account, press "Sign in". No password: the provider is
// for tests, and a test signs in as whom it names.

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** Returns the HTML of the login form for interaction `uid`, listing `accounts`. */
export function loginPage(uid, params, accounts) {
  const options = accounts
    .map((a) => `<option value="${escape(a.sub)}">${escape(a.name)} (${escape(a.email)})</option>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in to the test identity provider</title></head>
<body>
<main>
<h1>Sign in to the test identity provider</h1>
<p>${escape(params.client_id)} asks for: ${escape(params.scope)}</p>
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="login">Account</label>
<select id="login" name="login">${options}</select>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;
}
