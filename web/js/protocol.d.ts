// Written by `python -m server.net.typegen > web/js/protocol.d.ts`: do not edit.
// The wire protocol (docs/protocol.md) as the server defines it: client->server messages
// from server/net/protocol.py, server->client ones from server/wire.py.

export type ProtocolVersion = "2.4";

// -- server -> client (server/wire.py)

/** A room's rule options (a Crokinole room's, docs/crokinole.md); `create` sends them as fields of its own. */
export interface RuleOptions {
  scoring?: "tournament" | "conventional";
  target?: number;
  direct_hit?: boolean;
  line_discs_stay?: boolean;
  free_order?: boolean;
  players?: number;
}

/** A room's options as `room` and the lobby show them: its rules, and what the platform made it (docs/protocol.md, `room`): practice against the computer (docs/bot.md), or a competition's table (server/lobby/reserved.py, docs/competitions.md). */
export interface RoomOptions {
  scoring?: "tournament" | "conventional";
  target?: number;
  direct_hit?: boolean;
  line_discs_stay?: boolean;
  free_order?: boolean;
  players?: number;
  practice?: boolean;
  tournament?: string;
  opener?: number;
  held?: (string | null)[];
}

export interface SeatRef {
  room: string;
  seat: number;
}

export interface Welcome {
  t: "welcome";
  session: string;
  token: string;
  name: string;
  account: string | null;
  seat: SeatRef | null;
  speed_factor: number;
  grace: number;
  protocol: string;
}

export interface ErrorMessage {
  t: "error";
  code: string;
  message: string;
  ref?: number | string;
  rule?: string;
  reason?: string;
}

/** Who sits at a seat, as every view shows it. */
export interface Identity {
  registered: boolean;
  rating: number | null;
  provisional: boolean;
  computer: number | null;
}

/** A seat of a `room` message. */
export interface SeatView {
  registered: boolean;
  rating: number | null;
  provisional: boolean;
  computer: number | null;
  seat: number;
  team: number;
  name: string;
  ready: boolean;
  away: number | null;
  side: any;
}

export interface LobbyPlayer {
  registered: boolean;
  rating: number | null;
  provisional: boolean;
  computer: number | null;
  name: string;
  ready: boolean;
}

/** A room as the lobby lists it. */
export interface RoomSummary {
  id: string;
  game: string;
  options: RoomOptions;
  mode: string;
  sets: number;
  clock: number;
  status: string;
  players: (LobbyPlayer | null)[];
  rated: boolean;
  watchers: number;
  score: number[] | null;
}

export interface LobbyCounts {
  rooms: number;
  live: number;
}

export interface Lobby {
  t: "lobby";
  rooms: RoomSummary[];
  live: RoomSummary[];
  counts: LobbyCounts;
  queue: Record<string, number>;
}

export interface You {
  role: "player" | "watcher";
  seat: number | null;
}

/** The full state of a room, for a player at a seat or a watcher. */
export interface Room {
  t: "room";
  seq: number;
  id: string;
  game: string;
  options: RoomOptions;
  mode: string;
  sets: number;
  clock: number;
  private: boolean;
  rated: boolean;
  status: string;
  watchers: number;
  invite: string | null;
  you: You;
  seats: (SeatView | null)[];
  table: Record<string, any>;
  match: Record<string, any> | null;
  discs: Record<string, any>[];
  motion: Record<string, any> | null;
  rematch: number[];
}

/** A chat line (`team`: the team it was for, None: the whole room). */
export interface ChatLine {
  seat: number | null;
  name: string;
  text: string;
  team: number | null;
}

export interface Gone {
  seat: number;
  name: string;
  grace: number;
}

export interface Back {
  seat: number;
  name: string;
}

export interface Left {
  t: "left";
  room: string | null;
}

export interface Watchers {
  t: "watchers";
  room: string;
  n: number;
}

export interface QuickWindow {
  from: number;
  to: number;
  widen: number;
  open_after: number;
}

export interface Queued {
  t: "queued";
  mode: string;
  game: string;
  waiting: number;
  rated: boolean;
  window: QuickWindow | null;
  players?: number;
}

export interface Pong {
  t: "pong";
  n: number | null;
  time: number;
}

export interface Hidden {
  t: "hidden";
  seq: number;
}

/** A stroke's motion asked for again, and how far it has played. */
export interface Motion {
  t: "motion";
  stroke: number;
  time: number;
}

/** Quick match: nobody came, the computer plays. */
export interface ComputerTakes {
  t: "computer";
  mode: string;
  level: number;
  waited: number;
}

export interface Challenged {
  t: "challenged";
  id: string;
  game: string;
  mode: string;
  sets: number;
  clock: number;
  rated: boolean;
  expires_in: number;
  from: string;
}

export interface ChallengeSent {
  t: "challenge_sent";
  id: string;
  game: string;
  mode: string;
  sets: number;
  clock: number;
  rated: boolean;
  expires_in: number;
  to: string;
}

export interface ChallengeEnd {
  t: "challenge_end";
  id: string;
  why: "accepted" | "declined" | "cancelled" | "expired" | "busy" | "gone";
}

/** A stroke as the `stroke` message names it (docs/protocol.md). */
export interface ShotView {
  stroke: number;
  seat: number;
  x: number;
  y: number;
  angle: number;
  speed: number;
}

/** The `stroke` message's data: the stroke and its whole motion, the track's fields (server/games/core/paths.py; none after a restart). */
export interface StrokeView {
  stroke: number;
  seat: number;
  x: number;
  y: number;
  angle: number;
  speed: number;
  duration: number;
  decel?: number;
  paths?: any[][];
  origin?: any;
  wheres?: any;
}

/** The `ruling` message's data, every game's (docs/protocol.md); what the ruling found (`ruling`), the discs and the score are the game's own. */
export interface RulingView {
  stroke: number | null;
  seat: number | null;
  cause: string;
  ruling: Record<string, any>;
  discs: Record<string, any>[];
  turn: number | null;
  set: number;
  score: number[];
  sides: any[];
  lines?: Record<string, any>[];
  game?: string;
  round?: Record<string, any>;
}

// the room's events: the data with their `t` and sequence number
export type ChatLineEvent = ChatLine & { t: "chat"; seq: number };
export type GoneEvent = Gone & { t: "gone"; seq: number };
export type BackEvent = Back & { t: "back"; seq: number };
export type StrokeViewEvent = StrokeView & { t: "stroke"; seq: number };
export type RulingViewEvent = RulingView & { t: "ruling"; seq: number };

// -- client -> server (server/net/protocol.py)

export type Hello = {
  t: "hello";
  name: string;
  token?: string | null;
};

export type LobbySub = {
  t: "lobby";
  on?: boolean;
};

export type Create = {
  t: "create";
  mode: "singles" | "doubles";
  sets: number;
  clock: number;
  private?: boolean;
  game?: string;
  rated?: boolean;
} & RuleOptions;

export type Join = {
  t: "join";
  room?: string | null;
  seat?: number | null;
  team?: number | null;
  invite?: string | null;
};

export type Watch = {
  t: "watch";
  room?: string | null;
  invite?: string | null;
  since?: number | null;
};

export type Quick = {
  t: "quick";
  mode: "singles" | "doubles";
  game?: string;
  computer_after?: number | null;
  level?: number;
  players?: number | null;
};

export type Computer = {
  t: "computer";
  mode: "singles" | "doubles";
  level: number;
  sets: number;
  clock: number;
  partner?: boolean;
  opponents?: boolean;
  practice?: boolean;
  private?: boolean;
  game?: string;
};

export type Challenge = {
  t: "challenge";
  to: string;
  mode: "singles" | "doubles";
  sets: number;
  clock: number;
  game?: string;
  rated?: boolean;
};

export type ChallengeAnswer = {
  t: "challenge_answer";
  id: string;
  accept: boolean;
};

export type ChallengeCancel = {
  t: "challenge_cancel";
  id: string;
};

export type Hint = {
  t: "hint";
};

export type TakeBack = {
  t: "takeback";
};

export type Ready = {
  t: "ready";
  ready?: boolean;
};

export type Aim = {
  t: "aim";
  x: number;
  y: number;
  angle: number;
  power: number;
};

export type Pass = {
  t: "pass";
};

export type Resign = {
  t: "resign";
};

export type Chat = {
  t: "chat";
  text: string;
  team?: boolean;
};

export type Leave = {
  t: "leave";
};

export type Rematch = {
  t: "rematch";
};

export type Resume = {
  t: "resume";
  room: string;
  since: number;
};

export type Ping = {
  t: "ping";
  n?: number | null;
};

export type Strike = {
  t: "strike";
  x: number;
  y: number;
  angle: number;
  speed: number;
};

export type ClientMessage = (Hello | LobbySub | Create | Join | Watch | Quick | Computer | Challenge | ChallengeAnswer | ChallengeCancel | Hint | TakeBack | Ready | Aim | Pass | Resign | Chat | Leave | Rematch | Resume | Ping | Strike) & { ref?: number | string };
