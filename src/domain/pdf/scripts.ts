/**
 * Splits text into runs of one script, so each run is shaped with the font that covers it (Noto
 * Sans for Latin, Noto Sans Devanagari, Noto Sans Tamil). Characters every script uses (spaces,
 * punctuation, digits, the Indic dandas, ZWJ/ZWNJ, combining marks) stay in the run around them,
 * so "अनन्या क्षत्रिय" is one run and shapes with its space, and a name in brackets keeps its
 * brackets in the name's font where that font has them. Pure; no fonts here.
 */

export type Script = 'latin' | 'devanagari' | 'tamil';
export type Run = { script: Script; text: string };

const DEVANAGARI: [number, number][] = [
  [0x0900, 0x097f],
  [0xa8e0, 0xa8ff],
  [0x1cd0, 0x1cff],
];
const TAMIL: [number, number][] = [
  [0x0b80, 0x0bff],
  [0x11fc0, 0x11fff],
];

const within = (ranges: [number, number][], cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

/** The script a code point belongs to, or null when it is shared (it takes its neighbours' script). */
export function scriptOf(cp: number): Script | null {
  if (within(DEVANAGARI, cp) && cp !== 0x0964 && cp !== 0x0965) return 'devanagari';
  if (within(TAMIL, cp)) return 'tamil';
  if (
    cp <= 0x40 || // space, digits, punctuation
    (cp >= 0x5b && cp <= 0x60) ||
    (cp >= 0x7b && cp <= 0xbf) ||
    cp === 0x0964 || // danda, double danda: used by Devanagari, Tamil and others
    cp === 0x0965 ||
    (cp >= 0x0300 && cp <= 0x036f) || // combining marks
    (cp >= 0x2000 && cp <= 0x206f) || // general punctuation, ZWJ/ZWNJ
    cp === 0x25cc
  ) {
    return null;
  }
  return 'latin';
}

/** Runs in order; shared characters join the run before them (or the first run, at the start). */
export function itemize(text: string): Run[] {
  const runs: Run[] = [];
  let pending = ''; // shared characters before any script was seen
  for (const ch of text) {
    const script = scriptOf(ch.codePointAt(0)!);
    const last = runs[runs.length - 1];
    if (script === null) {
      if (last) last.text += ch;
      else pending += ch;
    } else if (last && last.script === script) {
      last.text += ch;
    } else {
      runs.push({ script, text: pending + ch });
      pending = '';
    }
  }
  if (pending) runs.push({ script: 'latin', text: pending });
  return runs;
}
