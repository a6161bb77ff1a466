/**
 * A depth budget for JSON read from outside, checked on the text before it is parsed: what a
 * parser or a validator does with it afterwards (the JSON Schema validator recurses once per
 * level and overflows its stack near 300 levels) is then bounded. One linear pass over the text,
 * strings skipped. Plain TypeScript.
 */

/** No request body or credential this API reads nests deeper (an OB 3.0 credential needs about 8). */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests arrays and objects deeper than `max` levels (invalid JSON is left to the parser). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > max) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/** The depth of a parsed value, stopping as soon as it passes `max` (for values that arrive parsed). */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
