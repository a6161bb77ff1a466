import { html, raw } from 'hono/html';
import { describe, expect, it } from 'vitest';
import { cspHash, htmlString } from './html';

describe('html`` (hono/html) as the pages use it', () => {
  it('escapes the five characters that can end text or an attribute', () => {
    expect(htmlString(html`${`<a href="x" title='y'>&</a>`}`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('escapes interpolated strings, keeps nested html and raw, joins arrays and drops null/false', () => {
    const name = '<script>alert(1)</script>';
    const rows = ['a&b', 'c'].map((v) => html`<td>${v}</td>`);
    const out = html`<p title="${name}">${name}</p>${rows}${null}${false}${undefined}${0}${raw('<hr>')}`;
    expect(htmlString(out)).toBe(
      '<p title="&lt;script&gt;alert(1)&lt;/script&gt;">&lt;script&gt;alert(1)&lt;/script&gt;</p>' +
        '<td>a&amp;b</td><td>c</td>0<hr>',
    );
  });

  it('refuses a template that interpolated a Promise instead of sending it half-rendered', () => {
    expect(() => htmlString(html`<p>${Promise.resolve('late')}</p>`)).toThrow(TypeError);
  });

  it('hashes a source for a CSP hash source', async () => {
    // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
    expect(await cspHash('alert(1)')).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });
});
