-- Accounts and their logins (server/accounts/store.py). An account is never removed: once
-- deleted it keeps only its name's key (so that nobody else takes the name) and when it was
-- made and deleted, and its matches show "deleted player".
CREATE TABLE accounts (
    uid text PRIMARY KEY CHECK (uid ~ '^[A-Za-z0-9_-]{1,64}$'),
    name_key text NOT NULL UNIQUE CHECK (length(name_key) BETWEEN 1 AND 64),
    name text CHECK (name IS NULL OR lower(name) = name_key),
    hash text,
    created double precision NOT NULL,
    deleted_at double precision,
    CHECK ((deleted_at IS NULL) = (name IS NOT NULL AND hash IS NOT NULL))
);

-- A login by the SHA-256 of its cookie token (the token itself is not stored); it ends
-- LOGIN_TTL after its last use.
CREATE TABLE logins (
    hash bytea PRIMARY KEY CHECK (length(hash) = 32),
    uid text NOT NULL REFERENCES accounts (uid) ON DELETE CASCADE,
    expires double precision NOT NULL
);
CREATE INDEX logins_uid ON logins (uid);
