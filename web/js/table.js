// The table preset, in millimetres: seed 004 § 33-35. Kept as data so that the
// client draws and checks whatever table the server announces (it may override it).

export const COMPETITION = Object.freeze({
  name: "competition",
  size: 1080, // § 33 (1) 1): playing surface 1.08 m x 1.08 m
  railWidth: 40, // § 33 (1) 1): rail thickness not less than 40 mm
  pocketInset: 60, // hole edge 20 mm from both rails, radius 40: centre 60 mm in
  pocketRadius: 40, // § 33 (1) 1): holes 80 mm across
  zoneDepth: 120, // § 33 (1) 1): edge-zone lines 120 mm from the rail
  circleRadius: 125, // § 33 (1) 1): centre circle 250 mm across
  puckRadius: 14, // § 34 (1) 1): 28 mm across
  puckHoleRadius: 2.5, // § 34 (1) 1): 5 mm hole
  strikerRadius: 24, // § 35 (1) 1): 48 mm across
  strikerHoleRadius: 4.5, // § 35 (1) 1): hole 8 to 10 mm; 9 mm taken
  maxSpeed: 8000, // mm/s: a hard break; the server's preset wins when it sends one
});

const camel = (k) => k.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
// The protocol's names that differ from the preset's (docs/protocol.md, room.table).
const ALIASES = { zone: "zoneDepth" };

/**
 * Merge the server's table description over a preset: any subset of the preset's
 * numeric keys, in camelCase or the server's snake_case (pocket_radius).
 */
export function tableFrom(serverTable, base = COMPETITION) {
  if (!serverTable || typeof serverTable !== "object") return base;
  const t = { ...base };
  for (const [key, value] of Object.entries(serverTable)) {
    const k = ALIASES[key] ?? camel(key);
    if (k in base && typeof base[k] === "number" && typeof value === "number" && Number.isFinite(value)) {
      t[k] = value;
    }
  }
  const sw = serverTable.pockets?.SW;
  if (Array.isArray(sw) && Number.isFinite(sw[0])) t.pocketInset = sw[0];
  return Object.freeze(t);
}

export const SIDES = ["S", "W", "N", "E"];
export const POCKETS = ["SW", "SE", "NE", "NW"];

/** Pocket centres in world coordinates. */
export function pocketCentres(t) {
  const a = t.pocketInset;
  const b = t.size - t.pocketInset;
  return { SW: [a, a], SE: [b, a], NE: [b, b], NW: [a, b] };
}
