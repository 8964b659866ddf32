-- The archive: what was struck, not what followed (server/store/archive.py). A match's
-- header (players, settings, result) and its inputs (each stroke's placement, cue, seat,
-- time and state hash; passes, clock expiries, resignations); the rest is recomputed.
-- Start positions are shared: every match of the same settings starts alike.
CREATE TABLE starts (
    id bytea PRIMARY KEY CHECK (length(id) = 16),
    entry bytea NOT NULL
);

CREATE TABLE matches (
    mid text PRIMARY KEY CHECK (mid ~ '^[A-Za-z0-9_-]{1,64}$'),
    game text NOT NULL CHECK (length(game) BETWEEN 1 AND 32),
    started double precision NOT NULL,
    ended double precision NOT NULL CHECK (ended >= started),
    private boolean NOT NULL,
    start bytea NOT NULL REFERENCES starts (id),
    header bytea NOT NULL,
    inputs bytea NOT NULL
);
CREATE INDEX matches_recent ON matches (started DESC) WHERE NOT private;

-- Each player's matches (an account's uid, or a guest's session id whose list lapses at
-- `expires` unless they register), newest first by keyset: (ended, mid) < the last seen.
CREATE TABLE player_matches (
    pid text NOT NULL CHECK (length(pid) BETWEEN 1 AND 64),
    private boolean NOT NULL,
    ended double precision NOT NULL,
    mid text NOT NULL REFERENCES matches (mid),
    expires double precision,
    PRIMARY KEY (pid, private, ended, mid)
);
