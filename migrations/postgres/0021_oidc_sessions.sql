-- Sessions begun at an organisation's identity provider: the provider's refresh token, kept
-- beside the session (a credential, so never in an event). Each token refresh here refreshes
-- there; a refusal ends the session.
CREATE TABLE oidc_sessions
(
    session_id    TEXT NOT NULL PRIMARY KEY,
    issuer        TEXT NOT NULL,
    subject       TEXT NOT NULL,
    refresh_token TEXT NOT NULL,
    created_at    TEXT NOT NULL
);
