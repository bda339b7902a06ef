// tau-scale.js: the τ heatmap's colour scale. Colour encodes T·τ, a task's
// weight relative to uniform (1 = an equal share), on a log2 scale from the
// catalogue's lo to hi (1/8 to 8) with its diverging stops, neutral at 1;
// values beyond the range take the end colours (and the legend says so:
// "≤ 1/8", "≥ 8"). The arithmetic is Go's figure.TauColour, step for step,
// so the page's cells, its SVG and `spmtl figure tau` agree colour for
// colour. A stretched scale narrows the range to a run's own spread,
// symmetric around 1 so that 1 stays neutral.

/** The colour of a cell without a value (as Go draws NaN). */
export const NO_VALUE = "#bbbbbb";

const hexRGB = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
// "#rrggbb" of three integers 0-255, formatted as one number (every cell
// and every pixel of the legend's bar is coloured through here).
const hexOf = (r, g, b) => "#" + (0x1000000 | (r << 16) | (g << 8) | b).toString(16).slice(1);

// frexp splits x > 0 into a fraction in [0.5, 1) and a power of two, as Go's math.Frexp.
const bits = new DataView(new ArrayBuffer(8));
function frexp(x) {
  let shift = 0;
  if (x < 2.2250738585072014e-308) { x *= 2 ** 64; shift = 64; } // subnormal
  bits.setFloat64(0, x);
  const hi = bits.getUint32(0);
  const exp = ((hi >>> 20) & 0x7ff) - 1022 - shift;
  bits.setUint32(0, (hi & 0x800fffff) | (1022 << 20));
  return [bits.getFloat64(0), exp];
}

/** log2 as Go's math.Log2 computes it (exact at powers of two). */
export function log2(x) {
  if (!(x > 0) || !Number.isFinite(x)) return Math.log2(x);
  const [frac, exp] = frexp(x);
  if (frac === 0.5) return exp - 1;
  return Math.log(frac) * Math.LOG2E + exp;
}

/** A value of T·τ as a legend writes it: 1/8, 1/2, 1, 2, 8, or 2 digits
 *  below 1 and 3 from 1 on ("under 1e-6" below a millionth). A value that rounds up to 1 counts as 1 on:
 *  0.9999 is "1.00" like 1.004, not "1.0". */
export function relText(v) {
  // A weight under a millionth of an equal share is no weight at all, and
  // "4.9e-155" would read as a measured one.
  if (v > 0 && v < 1e-6) return "under 1e-6";
  // 1/8, 1/3 as fractions; 1/v of a tiny v is a whole number too once past
  // 2⁵³ (a weight of 1e-52 printed as "1/9.916112721719266e+51").
  if (v > 0 && v < 1 && 1 / v <= 1024 && Number.isInteger(1 / v)) return `1/${1 / v}`;
  if (Number.isInteger(v)) return String(v);
  return v.toPrecision(v < 1 && Number(v.toPrecision(2)) < 1 ? 2 : 3);
}

// printed is the number a text of relText's reads as ("1/8" too).
const printed = (s) => (s.startsWith("1/") ? 1 / Number(s.slice(2)) : Number(s));

/** The ends of a range of T·τ as texts: [lo, hi] as relText writes them,
 *  or, when those would read as the same number, both with the fewest
 *  digits that tell them apart (0.9999 and 1.004: "0.9999" and "1.004",
 *  not "1.00" twice); [lo] alone when they are equal to 12 digits. */
export function relEnds(lo, hi) {
  let a = relText(lo), b = relText(hi);
  for (let p = 3; printed(a) === printed(b) && p <= 12; p++) { a = lo.toPrecision(p); b = hi.toPrecision(p); }
  return printed(a) === printed(b) ? [relText(lo)] : [a, b];
}

/** A range of T·τ as one text: "0.65–1.24", "0.9999–1.004", or "1" when its ends are equal. */
export function relRange(lo, hi, sep = "–") { return relEnds(lo, hi).join(sep); }

/** A colour scale of T·τ. spec: the catalogue's {lo, hi, stops, ticks}. */
export class TauScale {
  constructor(spec, stretched = false) {
    this.lo = spec.lo; this.hi = spec.hi;
    this.stops = spec.stops.map(hexRGB);
    this.stopHex = spec.stops.slice();
    this.tickValues = spec.ticks.slice();
    this.stretched = stretched;
    // The ends' log2, computed once: position is called for every cell.
    this.logLo = log2(this.lo); this.logHi = log2(this.hi);
  }

  /** Where rel sits on the scale, 0 (lo) to 1 (hi), clipped. */
  position(rel) {
    const lo = this.logLo, hi = this.logHi;
    const t = (log2(Math.max(rel, 1e-300)) - lo) / (hi - lo);
    return Math.min(1, Math.max(0, t));
  }

  /** The colour of T·τ = rel as [r, g, b] (NaN: grey). */
  rgb(rel) {
    if (Number.isNaN(rel)) return hexRGB(NO_VALUE);
    const n = this.stops.length - 1;
    const x = this.position(rel) * n;
    const i = Math.min(n - 1, Math.floor(x)), f = x - i;
    const a = this.stops[i], b = this.stops[i + 1];
    return [Math.round(a[0] + f * (b[0] - a[0])), Math.round(a[1] + f * (b[1] - a[1])), Math.round(a[2] + f * (b[2] - a[2]))];
  }

  /** The colour of T·τ = rel as "#rrggbb". */
  colour(rel) {
    if (Number.isNaN(rel)) return NO_VALUE;
    const [r, g, b] = this.rgb(rel);
    return hexOf(r, g, b);
  }

  /** The neutral colour (T·τ = 1 on an unstretched scale: the middle stop). */
  get neutral() { return this.colour(1); }

  /** Whether rel lies beyond the scale's ends (drawn in the end colours). */
  clipped(rel) { return rel < this.lo || rel > this.hi; }

  /** The ticks to label: [{value, label}]; the ends say that they clip. */
  ticks() {
    return this.tickValues.map((v) => {
      let label = relText(v);
      if (v === this.lo) label = `≤ ${label}`;
      else if (v === this.hi) label = `≥ ${label}`;
      return { value: v, label };
    });
  }

  /** The scale stretched to a run whose T·τ spans [runLo, runHi]:
   *  symmetric in log2 around 1, at least ±1% wide, never wider than this one. */
  stretchTo(runLo, runHi) {
    let m = Math.max(Math.abs(log2(runLo)), Math.abs(log2(runHi)), log2(1.01));
    m = Math.min(m, log2(this.hi));
    const lo = 2 ** -m, hi = 2 ** m;
    return new TauScale({ lo, hi, stops: this.stopHex, ticks: [lo, 1, hi] }, true);
  }
}
