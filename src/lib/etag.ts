/**
 * `If-None-Match` as RFC 9110 §13.1.2 defines it: true when the header is `*` or lists an
 * entity-tag equal to `etag` under weak comparison (`W/"x"` and `"x"` match). A single exact tag,
 * what browsers send back, is answered without parsing.
 */
export function noneMatch(header: string | undefined | null, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const tag of header.match(/(?:W\/)?"[^"]*"/g) ?? []) {
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}
