// Unit tests of the one room client (js/room-client.js), shared by the Novuss and Crokinole
// pages: events applied once and in order, a gap asked for again once, held events.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RoomClient } from "../js/room-client.js";
import { colourOf, whoIs } from "../js/crokinole-board.js";
import { paragraphOf } from "../js/crokinole-rules.js";
import { setLanguage } from "../js/i18n.js";

function client(role = "player") {
  const sent = [];
  const track = { room: { id: "r1", you: { role, seat: role === "player" ? 0 : null } }, last: 0, resumeAskedAt: null, held: [] };
  let playing = false;
  const rc = new RoomClient({ track, send: (m) => sent.push(m) > 0, playing: () => playing, invite: () => "inv" });
  rc.entered({ seq: 5 });
  return { rc, track, sent, play: (on) => (playing = on) };
}

test("a duplicate is dropped, the next applied, a gap asked for again from the last seen", () => {
  const { rc, track, sent } = client();
  const got = [];
  const handlers = { chat: (m) => got.push(m.seq) };
  for (const seq of [5, 6, 6, 8]) rc.handle({ t: "chat", seq }, handlers);
  assert.deepEqual(got, [6]);
  assert.deepEqual(sent, [{ t: "resume", room: "r1", since: 6 }]);
  rc.handle({ t: "chat", seq: 8 }, handlers); // the gap asking again did not fill: taken
  assert.deepEqual(got, [6, 8]);
  assert.equal(track.last, 8);
});

test("a watcher asks again by watching with its invite; hidden only moves last on", () => {
  const { rc, track, sent } = client("watcher");
  rc.handle({ t: "hidden", seq: 6 }, {});
  assert.equal(track.last, 6);
  rc.handle({ t: "ruling", seq: 9 }, {});
  assert.deepEqual(sent, [{ t: "watch", room: "r1", since: 6, invite: "inv" }]);
  assert.equal(rc.resumeSince("r1"), 6);
  assert.equal(rc.resumeSince("other"), 0);
});

test("events wait while a motion plays and run in order when it ends", () => {
  const { rc, track, play } = client();
  const order = [];
  play(true);
  assert.equal(rc.hold(() => order.push("ruling")), false);
  rc.hold(() => order.push("result"));
  assert.deepEqual(order, []);
  play(false);
  rc.releaseHeld();
  assert.deepEqual(order, ["ruling", "result"]);
  assert.equal(track.held.length, 0);
  assert.equal(rc.hold(() => order.push("now")), true);
});

test("Crokinole: colours by team, players named to the reader, the 002 paragraph of a ruling", () => {
  setLanguage("en");
  const room = { mode: "doubles", seats: [{ name: "A", team: 0 }, { name: "B", team: 1 }, { name: "C", team: 0 }, { name: "Computer", team: 1, computer: 3 }] };
  assert.deepEqual([0, 1, 2, 3].map((s) => colourOf(room, s)), [0, 1, 0, 1]);
  assert.deepEqual([0, 1, 3].map((s) => whoIs(room, s, 0)), ["You", "B", "The computer"]);
  assert.match(paragraphOf("3 b").text, /^If there are no opposing discs in play/);
  assert.equal(paragraphOf("3 a, 7 a").rule, "3 a");
  assert.equal(paragraphOf("9 z"), null);
});
