// The Novuss table on screen: an animation frame draws the pucks (at rest or in motion), the
// aim, the clock and the marks, when something changed (redraw.js); the striker is handed to the player whose turn it is and
// the live aim is sent to the others; a puck pressed by a non-striker says what it is for him.
import { placeAimNote } from "./aim-note.js";
import { drawHint } from "./computer.js";
import { $, el } from "./dom.js";
import { firstTouch, toWorld as toWorldOf } from "./geometry.js";
import { t } from "./i18n.js";
import { AimController } from "./input.js";
import { drawLoupe } from "./loupe.js";
import { puckList } from "./puck-list.js";
import { citeHref } from "./puck-rules.js";
import { PuckWatch } from "./puck-watch.js";
import { ratedName } from "./rating.js";
import { changed, DrawGate } from "./redraw.js";
import { Renderer } from "./render.js";
import { link, mySeat, mySide, send, sideOf, state } from "./state.js";
import { pocketCentres } from "./table.js";

const AIM_EVERY_MS = 70; // the server coalesces aims to 15 a second
const HIGHLIGHT_MS = 4000;
const CUE_ROOM_MM = 140; // room in front of the player's rail for pulling the cue

/** @typedef {import("./protocol").SeatView} SeatView */

/**
 * The table's view on the page's canvas `#table`. `ctx` holds what it shares with the rest of
 * the page: `playback` (the motion being shown), `sounds`, `contacts` (the sounds of the
 * motion), `hud`, `computerView`, and `releaseHeld` (the events held until a motion ends).
 */
export function createTableView(ctx) {
  const { playback, sounds, contacts, hud, computerView } = ctx;
  const canvas = $("table");
  const renderer = new Renderer(canvas);
  /** The screen transform: the first frame lays it out, before the table is shown or takes input. */
  const viewNow = () => /** @type {import("./geometry.js").View} */ (renderer.view);
  let aimSentAt = 0;
  /** @type {number | undefined} */
  let aimTimer = undefined;

  const aimer = new AimController(canvas, {
    getView: viewNow,
    lockButton: $("aim-lock"),
    onChange: () => {
      // Rate-limit the live preview, always sending the latest aim last.
      clearTimeout(aimTimer);
      const wait = AIM_EVERY_MS - (performance.now() - aimSentAt);
      if (wait <= 0) sendAim();
      else aimTimer = setTimeout(sendAim, wait);
    },
    onStrike: (shot) => {
      clearTimeout(aimTimer);
      state.strikeRef = link.nextRef++;
      if (send({ t: "strike", ...shot, ref: state.strikeRef })) return;
      aimer.stop(); // not sent: the striker is still the player's
      updateAimer();
    },
  });

  function sendAim() {
    const a = aimer.aim;
    if (!a || !aimer.enabled) return;
    aimSentAt = performance.now();
    send({ t: "aim", x: a.x, y: a.y, angle: a.angle, power: a.power });
  }

  /** Give the player the striker when it is his turn and the table is still. */
  function updateAimer() {
    const me = mySeat();
    const mine = me !== null && state.phase === "play" && state.turn === me && !playback.active && !state.result;
    aimer.doubles = state.room?.mode === "doubles";
    if (mine && !aimer.enabled) aimer.start(state.table, mySide(), state.discs, me);
    else if (!mine && aimer.enabled) aimer.stop();
    else if (mine) aimer.pucks = state.discs;
    renderPuckList();
    computerView.renderControls(state.room, me, state.turn, playback.active ? "motion" : state.phase);
  }

  function renderPuckList() {
    const box = $("puck-list");
    const w = watchContext();
    if (w) {
      // Someone else strikes: the pucks say what they are for him (puck-watch.js).
      box.setAttribute("aria-label", t("seen.list", { name: w.name }));
      puckList(box, w.pucks, w.seat, (p) => watch.press(p), (whose, k) => t("seen.item", { whose, k, name: w.name }));
      return;
    }
    box.setAttribute("aria-label", t("puck.list"));
    const pucks = aimer.enabled ? state.discs.filter((d) => d.id !== 0) : [];
    puckList(box, pucks, mySeat(), (p, again) => aimer.enabled && aimer.pressPuck(p, again));
  }

  /** While someone else is to strike and the table is still: what pressing a puck needs. */
  function watchContext() {
    const turn = state.turn;
    if (aimer.enabled || state.phase !== "play" || playback.active || turn === null || turn === undefined || turn === mySeat()) return null;
    const name = state.room?.seats[turn]?.name ?? t("seat", { seat: turn + 1 });
    const pucks = state.discs.filter((d) => d.id !== 0);
    return { table: state.table, seat: turn, side: sideOf(turn), name, doubles: state.room?.mode === "doubles", pucks };
  }
  const watch = new PuckWatch(canvas, $("watch-note"), { getView: viewNow, context: watchContext });

  /** Seconds left on the stroke clock, and its full length. */
  function clockLeft(now) {
    const c = state.clock;
    if (!c || state.phase === "over") return null;
    const left = c.running ? c.remaining - (now - c.at) / 1000 : c.remaining;
    return { seat: c.seat, left: Math.max(0, left), total: state.room?.clock || c.remaining || 30, running: c.running };
  }

  function scene(now) {
    const moving = playback.active;
    const discs = moving ? playback.sample(now) : state.discs;
    const striker = discs.find((d) => d.id === 0);
    const mine = aimer.enabled ? aimer.aim : null;
    const ghost = !moving && !mine && state.ghost && state.ghost.seat === state.turn ? state.ghost : null;
    const playing = !moving && state.phase === "play" && state.turn !== null && state.turn !== undefined;
    const clock = clockLeft(now);
    return {
      moving,
      table: state.table,
      side: mySide(),
      below: mySeat() === null ? 30 : CUE_ROOM_MM,
      pucks: discs.filter((d) => d.id !== 0),
      striker: mine ? { ...mine, illegal: !mine.legal } : striker || (ghost ? { x: ghost.x, y: ghost.y, ghost: true } : null),
      aim: mine,
      ghost,
      // Blind pucks and the first touch, for whoever holds the turn (004 § 21).
      blind: playing ? { side: sideOf(state.turn), seat: state.turn } : null,
      clock: playing && clock && clock.seat === state.turn ? clock : null,
      highlights: state.highlights.filter((h) => now - h.since < HIGHLIGHT_MS),
      players: (state.room?.seats || [])
        .filter(/** @param {SeatView | null} s @returns {s is SeatView} */ (s) => !!s?.side)
        // the rail names carry the ratings as the lobby and the waiting room show them
        .map((s) => ({ side: s.side, name: ratedName(s), active: s.seat === state.turn && state.phase !== "over" })),
      now,
    };
  }

  /** Does anything on the table move at `now`, so that every display frame draws? */
  function moving(now) {
    if (playback.active || renderer.dropping) return true;
    if (state.highlights.some((h) => now - h.since < HIGHLIGHT_MS)) return true;
    const c = clockLeft(now);
    return !!c && c.running && c.left <= 5; // the ring pulses in the last 5 s (render.js)
  }

  const gate = new DrawGate();
  function frame(now) {
    requestAnimationFrame(frame);
    if (playback.active && playback.finished(now)) {
      playback.clear();
      ctx.releaseHeld();
      changed();
    }
    if (document.body.dataset.screen !== "screen-match") return;
    if (!gate.due(now, moving(now))) return;
    if (playback.active) sounds.play(contacts.step(playback.sample(now), now));
    else contacts.reset();
    if (playback.active) state.motionDraws += 1;
    renderer.draw(scene(now));
    if (!playback.active && state.phase === "play") drawHint(renderer.ctx, renderer.view, renderer.dpr, state.hint, state.discs, state.table);
    const names = state.room ? state.room.seats.map((s) => s?.name) : [];
    hud.renderClock(state.phase === "over" ? null : state.clock, now, names);
    hud.renderDropped([...state.dropped.values()], now);
    const a = aimer.enabled ? aimer.aim : null;
    placePower(a, now);
    const hint = $("place-hint");
    const reason = a && !a.legal ? a.reason : null;
    hint.hidden = !reason;
    if (reason) hint.textContent = reason === "touching" ? t("aim.touching") : t("aim.outside");
    tickClock(now);
    drawLoupe($("loupe"), canvas, renderer, aimer, a, now);
  }

  /**
   * The power control beside the striker, in the room in front of the player's rail,
   * with a number and what a release does now; and a word about the aim near it.
   */
  function placePower(a, now) {
    const box = $("power");
    const note = $("aim-note");
    box.hidden = !a;
    const text = a?.note && a.note.until > now ? a.note.text : "";
    note.hidden = !text;
    if (!a) return;
    const view = viewNow();
    const tab = state.table;
    const [sx] = view.toScreen(a.x, a.y);
    const [, railY] = view.toScreen(...toWorldOf(mySide(), tab.size / 2, -tab.railWidth));
    const pct = Math.round(a.power * 100);
    $("power-fill").style.width = `${pct}%`;
    $("power-fill").style.background = `hsl(${Math.round(120 * (1 - a.power))} 75% 45%)`; // green to red
    $("power-num").textContent = `${pct}%`;
    const g = aimer.gesture;
    $("power-hint").textContent =
      g === "pull" ? (a.power > 0 ? t("aim.release") : t("aim.pull")) : g === "place" ? t("aim.moving") : "";
    box.dataset.gesture = g;
    $("aim-lock").hidden = !a.locked;
    box.dataset.locked = a.locked ? "1" : "";
    // Below the rail, on the side of the striker away from the cue's butt.
    const cueGoesRight = Math.cos(view.screenAngle(a.angle) + Math.PI) > 0;
    const w = box.offsetWidth || 120;
    const room = view.height - railY;
    const top = railY + Math.max(2, (room - box.offsetHeight) / 2);
    let left = cueGoesRight ? sx - w - 18 : sx + 18;
    left = Math.max(4, Math.min(view.width - w - 4, left));
    box.style.left = `${Math.round(left)}px`;
    box.style.top = `${Math.round(top)}px`;
    if (text) {
      const cite = a.note.cite || "";
      if (note.dataset.text !== text || note.dataset.cite !== cite) {
        // The paragraph the word rests on, a link to its text on the rules page.
        const href = citeHref(cite);
        note.dataset.text = text;
        note.dataset.cite = cite;
        note.replaceChildren(text, ...(href ? [" ", Object.assign(el("a", { text: `(${cite})` }), { href, target: "_blank", rel: "noopener" })] : []));
      }
      placeAimNote(note, view, tab, a);
    }
  }

  // The last five seconds of the player's own stroke clock: a short tick each second.
  /** @type {number | null} */
  let tickedAt = null;
  function tickClock(now) {
    const c = clockLeft(now);
    const me = mySeat();
    if (!c || !c.running || me === null || c.seat !== me || state.phase !== "play" || c.left > 5 || c.left <= 0) {
      tickedAt = null;
      return;
    }
    const second = Math.ceil(c.left);
    if (second === tickedAt) return;
    tickedAt = second;
    $("table-wrap").dataset.ticks = String(Number($("table-wrap").dataset.ticks || 0) + 1);
    sounds.tick(second <= 2);
  }

  /** The first-touch preview of this player's aim now (what the guide line shows). */
  function previewNow() {
    if (!aimer.enabled) return null;
    const a = /** @type {import("./input.js").Aim} */ (aimer.aim); // enabled: start() has set it
    const r = firstTouch(state.table, mySide(), mySeat(), a.x, a.y, a.angle, state.discs, pocketCentres(state.table));
    return { kind: r.kind, id: r.id, legal: r.legal, reason: r.reason };
  }

  return { canvas, renderer, aimer, watch, frame, gate, updateAimer, renderPuckList, previewNow };
}
