// Pure: how a colour looks to the three common kinds of colour blindness, and how far apart
// two colours are, for the table's colours that must be told apart (docs/client.md,
// "Colours for colour-blind players"; web/tests/colour-vision.test.mjs).
//
// The simulation is Machado, Oliveira and Fernandes (2009), "A physiologically-based model
// for simulation of color vision deficiency", severity 1.0 (dichromacy: protanopia,
// deuteranopia, tritanopia), applied in linear sRGB. The distance is CIE ΔE 1976 in L*a*b*
// (D65), and the lightness difference ΔL* alone, which is what thin lines and small discs
// keep when hue is lost.

export const KINDS = ["normal", "protanopia", "deuteranopia", "tritanopia"];

const MACHADO = {
  normal: [1, 0, 0, 0, 1, 0, 0, 0, 1],
  protanopia: [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998],
  deuteranopia: [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881],
  tritanopia: [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.3039],
};

/** "#rrggbb" -> [r, g, b] in 0..1 (sRGB). */
export function parseHex(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [1, 2, 3].map((i) => parseInt(m[i], 16) / 255);
}

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
const clamp = (c) => Math.min(1, Math.max(0, c));

/** The colour as seen with `kind` of colour vision, sRGB 0..1. */
export function simulate(rgb, kind) {
  const m = MACHADO[kind];
  if (!m) throw new Error(`unknown colour vision ${kind}`);
  const [r, g, b] = rgb.map(toLinear);
  return [0, 3, 6].map((i) => toGamma(clamp(m[i] * r + m[i + 1] * g + m[i + 2] * b)));
}

/** sRGB 0..1 -> CIE L*a*b* (D65). */
export function toLab(rgb) {
  const [r, g, b] = rgb.map(toLinear);
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** How two colours differ for `kind` of colour vision: {deltaE, deltaL}. */
export function difference(hexA, hexB, kind) {
  const a = toLab(simulate(parseHex(hexA), kind));
  const b = toLab(simulate(parseHex(hexB), kind));
  return { deltaE: Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]), deltaL: Math.abs(a[0] - b[0]) };
}
