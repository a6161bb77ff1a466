/*
 * The certificate page's enhancements (/verify/{no}); the page works without them.
 * - "Copy link" and "Copy credential" buttons (shown only when the clipboard is available);
 * - the signature check in the browser: the page's own credential against the published keys
 *   (WebCrypto), and that it names this certificate; a failure turns the verdict red.
 * Served as a static asset (public/), allowed by the page's CSP as 'self'.
 */
(() => {
  function $(id) {
    return document.getElementById(id);
  }

  // The messages, in the page's language: a JSON block the page renders from its catalogue.
  const stringsBlock = $('verify-strings');
  let strings = {};
  try {
    strings = stringsBlock ? JSON.parse(stringsBlock.textContent) : {};
  } catch (_e) {
    strings = {};
  }
  /** A message with its `{name}` slots filled (the key itself if the page has no such message). */
  function say(key, values) {
    const template = typeof strings[key] === 'string' ? strings[key] : key;
    return template.replace(/\{(\w+)\}/g, (whole, name) =>
      values && values[name] !== undefined ? String(values[name]) : whole,
    );
  }

  const copy = $('copy-link');
  const shareUrl = $('share-url');
  const copyStatus = $('copy-status');
  if (copy && shareUrl && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener('click', () => {
      navigator.clipboard.writeText(shareUrl.value).then(
        () => {
          copyStatus.textContent = say('linkCopied');
        },
        () => {
          shareUrl.select();
          copyStatus.textContent = say('selectLink');
        },
      );
    });
  }

  const copyJwt = $('copy-jwt');
  const jwtText = $('credential-jwt');
  const copyJwtStatus = $('copy-jwt-status');
  if (copyJwt && jwtText && navigator.clipboard) {
    copyJwt.hidden = false;
    copyJwt.addEventListener('click', () => {
      navigator.clipboard.writeText(jwtText.textContent.trim()).then(
        () => {
          copyJwtStatus.textContent = say('copied');
        },
        () => {
          copyJwtStatus.textContent = say('selectCredential');
        },
      );
    });
  }

  function Failure(message) {
    this.message = message;
  }
  function bytes(segment) {
    if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new Failure(say('notBase64'));
    let text = segment.replace(/-/g, '+').replace(/_/g, '/');
    while (text.length % 4) text += '=';
    const binary = atob(text);
    const result = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) result[i] = binary.charCodeAt(i);
    return result;
  }
  function json(segment) {
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes(segment)));
    } catch (_e) {
      throw new Failure(say('malformed'));
    }
  }
  function Unsupported(message) {
    this.message = message;
  }

  // The algorithms a credential may be signed with: Ed25519 (credentials issued first) and ECDSA
  // P-256 (ES256, what Open Badges verifiers accept). Both are WebCrypto.
  const ALGORITHMS = {
    EdDSA: {
      kty: 'OKP',
      crv: 'Ed25519',
      import: { name: 'Ed25519' },
      verify: { name: 'Ed25519' },
      members: (k) => ({ kty: 'OKP', crv: 'Ed25519', x: k.x }),
    },
    ES256: {
      kty: 'EC',
      crv: 'P-256',
      import: { name: 'ECDSA', namedCurve: 'P-256' },
      verify: { name: 'ECDSA', hash: 'SHA-256' },
      members: (k) => ({ kty: 'EC', crv: 'P-256', x: k.x, y: k.y }),
    },
  };

  async function getJson(url) {
    const response = await fetch(url, { credentials: 'omit', headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(say('http', { url: url, status: response.status }));
    return response.json();
  }

  // The key a credential names: a kid that is a URL of this site is fetched for its one JWK;
  // otherwise (or if that fails) the published JWKS is searched by kid or by the URL's last
  // segment (the key's thumbprint). Keys named on other sites are never trusted.
  async function keyFor(header, jwksPath) {
    const kid = header.kid;
    let thumbprint = kid;
    if (/^https?:[/][/]/.test(kid)) {
      const url = new URL(kid);
      thumbprint = url.pathname.split('/').pop();
      if (url.origin === location.origin) {
        try {
          const single = await getJson(url.href);
          if (single?.kty) return single;
        } catch (_e) {
          /* fall back to the JWKS */
        }
      }
    }
    const jwks = await getJson(jwksPath);
    return (jwks.keys || []).filter((k) => k && (k.kid === kid || k.kid === thumbprint))[0] || null;
  }

  /** Checks a compact JWS: header, key, signature. Returns { header, payload } or throws Failure. */
  async function verifyJwt(jwt, jwksPath) {
    const parts = String(jwt).trim().split('.');
    if (parts.length !== 3) throw new Failure(say('notJwt'));
    const header = json(parts[0]);
    const payload = json(parts[1]);
    const algorithm = header && ALGORITHMS[header.alg];
    if (
      !algorithm ||
      typeof header.kid !== 'string' ||
      header.jku ||
      header.jwk ||
      header.x5u ||
      header.crit
    ) {
      throw new Failure(say('badAlgorithm'));
    }
    if (!window.crypto || !crypto.subtle) throw new Unsupported(say('noWebCrypto'));
    const jwk = await keyFor(header, jwksPath);
    if (!jwk || jwk.kty !== algorithm.kty || jwk.crv !== algorithm.crv) {
      throw new Failure(say('noKey', { alg: header.alg }));
    }
    let key;
    try {
      key = await crypto.subtle.importKey('jwk', algorithm.members(jwk), algorithm.import, false, ['verify']);
    } catch (e) {
      if (e && e.name === 'NotSupportedError')
        throw new Unsupported(say('unsupportedAlg', { alg: header.alg }));
      throw new Failure(say('badKey', { alg: header.alg }));
    }
    const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
    const valid = await crypto.subtle.verify(algorithm.verify, key, bytes(parts[2]), signed);
    if (!valid) throw new Failure(say('mismatch'));
    if (!payload || typeof payload !== 'object') throw new Failure(say('malformed'));
    return { header: header, payload: payload };
  }

  /**
   * The certificate number a credential of this site names, from one fixed claim: an
   * `evidence` entry whose id is exactly this site's verification page for it. Text elsewhere in
   * the payload (a brief titled "... see /verify/VP-...") never counts.
   */
  function numberOf(payload, base) {
    const evidence = [].concat(payload.evidence || []);
    for (let i = 0; i < evidence.length; i++) {
      const id = evidence[i]?.id;
      if (typeof id !== 'string' || id.indexOf(`${base}/verify/`) !== 0) continue;
      const rest = id.slice(base.length + '/verify/'.length);
      if (/^VP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(rest)) return rest;
    }
    return null;
  }
  function achievementOf(payload) {
    return payload.credentialSubject?.achievement || {};
  }

  // ----- /verify/{no}: the page's own credential
  const out = $('signature');
  const jwtElement = $('credential-jwt');
  if (out && jwtElement) {
    const showSignature = (state, text) => {
      out.setAttribute('data-state', state);
      out.textContent = text;
    };
    // The headline may say "Valid certificate" only while the signature holds: on a failure it
    // says so instead.
    const headline = $('verdict');
    const failHeadline = (text) => {
      if (headline?.getAttribute('data-status') !== 'active') return;
      headline.className = 'verdict verdict--invalid';
      headline.setAttribute('data-tone', 'invalid');
      headline.setAttribute('data-signature', 'failed');
      const state = $('verdict-title');
      if (state) state.lastChild.textContent = say('failTitle');
      if (state) state.firstChild.textContent = '\u2717';
      const paragraphs = headline.getElementsByTagName('p');
      const body = paragraphs[paragraphs.length - 1];
      if (body) body.textContent = say('failBody', { reason: text });
      const tagElement = headline.querySelector('.tag');
      if (tagElement) {
        tagElement.className = 'tag tag--red';
        tagElement.textContent = say('notValid');
      }
      const technical = $('technical');
      if (technical) technical.open = true;
    };
    (async () => {
      const checked = await verifyJwt(jwtElement.textContent, out.getAttribute('data-jwks'));
      const payload = checked.payload;
      // A valid signature on some other credential proves nothing about this page.
      const number = out.getAttribute('data-number');
      if (numberOf(payload, out.getAttribute('data-base')) !== number) {
        throw new Failure(say('notThisPage'));
      }
      // What changed since issue is information, not a failure.
      const changed = [];
      const achievement = achievementOf(payload);
      const title = out.getAttribute('data-title');
      if (payload.name !== title && achievement.name !== title)
        changed.push(say('changedTitle', { title: achievement.name || payload.name }));
      if (JSON.stringify(payload).indexOf(JSON.stringify(out.getAttribute('data-employer')).slice(1, -1)) < 0)
        changed.push(say('changedEmployer'));
      const issued = Math.floor(Date.parse(out.getAttribute('data-issued')) / 1000) * 1000;
      if (Date.parse(payload.validFrom) !== issued)
        changed.push(say('changedIssued', { date: payload.validFrom }));
      const status = out.getAttribute('data-status');
      const later =
        status === 'revoked' ? say('laterRevoked') : status === 'suspended' ? say('laterSuspended') : '';
      const note = changed.length ? say('changedNote', { list: changed.join(', ') }) : '';
      const kid = checked.header.kid.split('/').pop();
      const issuerId = payload.iss || payload.issuer?.id || say('theIssuer');
      const organisation = payload.issuer?.name || out.getAttribute('data-employer');
      showSignature(
        'verified',
        say('verified', {
          org: organisation,
          issuer: issuerId,
          alg: checked.header.alg,
          kid: kid.slice(0, 12),
        }) +
          note +
          later,
      );
    })().catch((e) => {
      if (e instanceof Failure) {
        showSignature('failed', say('failed', { reason: e.message }));
        failHeadline(e.message);
      } else if (e instanceof Unsupported) showSignature('unsupported', e.message);
      else {
        showSignature('error', say('couldNotCheck', { reason: e?.message ? e.message : String(e) }));
        failHeadline(say('couldNotCheckReason'));
      }
    });
  }
})();
