-- Tournaments (server/competitions/store.py): each one's document with its version (a write
-- names the version it read: two servers changing one tournament at once are serialised, the
-- second refused), whether it is being played, and the rooms of its tables.
CREATE TABLE tournaments (
    tid text PRIMARY KEY CHECK (tid ~ '^[A-Za-z0-9_-]{1,64}$'),
    created double precision NOT NULL,
    organiser text NOT NULL REFERENCES accounts (uid),
    version integer NOT NULL CHECK (version >= 1),
    live boolean NOT NULL DEFAULT false,
    doc bytea NOT NULL
);
-- the list page, newest first; the service's loop visits the live ones
CREATE INDEX tournaments_newest ON tournaments (created DESC, tid);
CREATE INDEX tournaments_live ON tournaments (tid) WHERE live;

CREATE TABLE tournament_rooms (
    rid text PRIMARY KEY CHECK (length(rid) BETWEEN 1 AND 64),
    tid text NOT NULL REFERENCES tournaments (tid)
);
