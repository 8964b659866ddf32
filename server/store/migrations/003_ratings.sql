-- Ratings, their history and the players' figures, moved in the same transaction as the
-- match that changed them (server/history/store.py).
CREATE TABLE ratings (
    uid text NOT NULL REFERENCES accounts (uid),
    mode text NOT NULL CHECK (length(mode) BETWEEN 1 AND 32),
    mu double precision NOT NULL,
    sigma double precision NOT NULL CHECK (sigma > 0),
    matches integer NOT NULL CHECK (matches >= 0),
    ordinal double precision NOT NULL,
    listed boolean NOT NULL DEFAULT true,
    PRIMARY KEY (uid, mode)
);
-- the leaderboard per game and mode, best first
CREATE INDEX ratings_board ON ratings (mode, ordinal DESC, uid) WHERE listed;

CREATE TABLE rating_history (
    uid text NOT NULL REFERENCES accounts (uid),
    mode text NOT NULL,
    at double precision NOT NULL,
    shown integer NOT NULL,
    mid text NOT NULL REFERENCES matches (mid),
    PRIMARY KEY (uid, mode, at, mid)
);

CREATE TABLE stats (
    uid text NOT NULL REFERENCES accounts (uid),
    counter text NOT NULL CHECK (length(counter) BETWEEN 1 AND 64),
    value bigint NOT NULL CHECK (value >= 0),
    PRIMARY KEY (uid, counter)
);

-- guest sessions whose matches an account took over (the profile knows which seat was theirs)
CREATE TABLE merged_sessions (
    uid text NOT NULL REFERENCES accounts (uid),
    sid text NOT NULL CHECK (length(sid) BETWEEN 1 AND 64),
    PRIMARY KEY (uid, sid)
);
