// @ts-check
// Seed 002's paragraphs ("The Rules Of Crokinole", Crokinole Depot; /work/shared/seeds/002) that
// the Crokinole referee cites, word for word, for a ruling's "Why?" on the Crokinole page. The
// seed exists in English only, so Estonian and Latvian readers get the English words, said so.

/** @type {Readonly<Record<string, string>>} paragraph ("3 b") -> its words */
export const PARAGRAPHS_002 = Object.freeze({
  "1": "A player or team's initial order of play, colour of discs, and seating position, shall be determined by chance. In singles play (2 players) opponents sit on opposite sides of the board and each have different colour of discs. Each player shots 8 discs, and shall alternate turns. In Doubles play (4 players, 2 teams), partners sit on opposite sides of the board and play the same colour of discs, which are different from the colour of their opponents discs. Each player shots 6 discs.",
  "2 a": "Each player, in turn, proceeding clockwise around the board, attempts to make a valid shot. See 3) Valid Shot",
  "2 b": "After each turn, any 20's are removed and placed in a designated area and remain there until the end of the round.",
  "2 c": "At the end of the round, when all discs have been shot, the score on the board shall be counted along with the 20's. For scoring procedures see 4) Scoring",
  "3 a": "If any opposing discs are in play, at least one of the shooters discs must strike an opposing disc either directly or by bumping one of his/her discs already in play into an opposing disc.",
  "3 b": "If there are no opposing discs in play, the shooting disc or at least one disc struck during the shot must end up touching or within the 15 line. (A 20 is considered within the 15 line)",
  "3 c": "If a valid shot is not made, the shooting disc and all of the other discs that were struck, including any 20's, are removed and placed in the ditch.",
  "4 b": "In order to score 20, a disc must be completely in the center hole and lying flat",
  "4 e": "The outer most ring on the board is the shooting line and any disc on or beyond the line is considered out of play and does not score. Any discs on or beyond this line, after a shot is completed, must be placed in the ditch.",
  "4 f": "In Tournament style play, the winner of a round scores 2 points. If the round is tied each team will score 1 point. A game consists of 4 rounds. (Sample scores of a completed game in tournament play would be, 8-0, 5-3, 4-4, 6-2, etc.)",
  "4 g": "In conventional play, at the end of each round points are cancelled down so only one or neither teams will score points. (Sample scores for the end of a round would be, 30-0, 15-0, 0-0, 5-0). A game will be played until one team scores a predetermined amount of points. (Generally 100) (Sample scores of a completed game in conventional play would be, 100-85, 110-60, 105-10, etc.)",
  "5": "A shot is made by flicking or shooting the discs towards the intended target, most commonly accomplished with the thumb and a finger or with the use of a cue stick (similar to a billiards shot). Before shooting, wait until all motion of the discs from the previous turn has ceased. A disc must start from a flat, stationary position, and be touching or behind the shooting line of the player's quadrant, or touching both the outer boundary line and a player's quadrant dividing line. Once a disc leaves the finger or cue, a shot is judged to have taken place. Neither the board (unless a rotating table is being used), nor the chair of any player, may be moved while the game is in progress. When a player is shooting at least one portion of his/her posterior must be in contact with the seat of his/her chair (The One Cheek Rule).",
  "6 a": "If a disc touches or crosses the shooting line it is out of play subject to b)",
  "6 b": "If a disc touches or crosses the shooting line and does not strike anything other than the playing surface while touching or across the shooting line, and returns under its own momentum to end up within the outer boundary line, it will be considered still in play.",
  "6 c": "If a disc touches or crosses the shooting line, strikes the backboard and/or out-of-play discs, then reenters the playing surface this disc is out of play, but the altered position of any discs struck shall remain and any 20's made shall count.",
  "7 a": "Change the Valid shot rule so that you must hit your opponent’s disc directly with your shooting disc. If you do hit your own disc first, remove your shooter and any other of your own discs that were bumped and put your opponent’s disc(s) back where they originated.",
  "7 b": "If a disc is on or beyond the shooting line, but it is still on the playing surface, it shall remain in play and count 5 points until completely shot off the board.",
  "7 c": "In doubles play, after the initial shot, either opponent may shoot. Each player must shoot all 6 of their discs, but play does not need to follow traditional clockwise order.",
  "7 d": "For 3 and 4 player crokinole, use 3 or 4 different colours of discs and shoot 6 discs each. Score 8 for a win, 6 for 2nd, 4 for 3rd, and 2 for 4th. Ties will be scored by adding the scores of the tied players and dividing by the amount of players tied. (For example two players tie for 2nd, they would both score 5, 3 players tie for 1st, they would all score 6 and 4th would get 2)",
});

/**
 * The words of the paragraph a ruling cites ("3 b", or "7 a" of "3 a, 7 a": the first one
 * known), or null.
 * @param {string} rule
 * @returns {{rule: string, text: string}|null}
 */
export function paragraphOf(rule) {
  for (const part of String(rule || "").split(/[,;]\s*/)) {
    const key = part.trim();
    if (PARAGRAPHS_002[key]) return { rule: key, text: PARAGRAPHS_002[key] };
    const section = key.split(" ")[0]; // "5" for a refusal citing "5"
    if (PARAGRAPHS_002[section]) return { rule: section, text: PARAGRAPHS_002[section] };
  }
  return null;
}
