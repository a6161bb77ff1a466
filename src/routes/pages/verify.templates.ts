/**
 * `/verify` and `/verify/{certificateNo}` on the one layout (issue 52): the verdict first, in
 * one of the honest tones (src/domain/pages/verdict-tone.ts), then what the certificate or
 * credential says, share and carry, and the technical details folded away. Every value is
 * escaped by the `html` template; the page's one script is the static /assets/verify.js.
 */
import { html, raw } from 'hono/html';
import { linkedInAddToProfileUrl } from '../../domain/certificates/linkedin';
import { achievementImageUrl, issuerUrl } from '../../domain/certificates/urls';
import type { Html } from '../../domain/pages/html';
import { encodeQr, qrSvgPath } from '../../domain/pages/qr';
import {
  claimsShowable,
  failingCheck,
  revocationOf,
  type Tone,
  toneOfReport,
  toneOfStatus,
} from '../../domain/pages/verdict-tone';
import type { ProblemBody } from '../../lib/problem';
import type { VerificationPayload } from '../../services/certificates';
import type { VerificationReport } from '../../services/credential-verifier';
import { button, details, errorSummary, notificationBanner, summaryList, tag } from './components';
import { type Catalogue, type Lang, t } from './i18n';
import { formAction, layout, withLang } from './layout';

export const VERIFY_SCRIPT_PATH = '/assets/verify.js';

const ICONS: Record<Tone, string> = { verified: '✓', unvetted: '!', invalid: '✗', unknown: '?' };
const TAG_COLOURS = { verified: 'green', unvetted: 'amber', invalid: 'red', unknown: 'grey' } as const;

function tagLabel(s: Catalogue, tone: Tone): string {
  return {
    verified: s.verdict.verifiedLabel,
    unvetted: s.verdict.unvettedLabel,
    invalid: s.verdict.invalidLabel,
    unknown: s.verdict.unknownLabel,
  }[tone];
}

/** The verdict: its state as the first words, in its tone. `data-tone` lets tests and the script read it. */
export function verdictBox(o: {
  tone: Tone;
  title: string;
  body: Html | string;
  extra?: Html;
  id?: string;
  status?: string;
  lang: Lang;
}): Html {
  return html`<section class="verdict verdict--${o.tone}" id="${o.id ?? 'verdict'}" data-tone="${o.tone}"${o.status ? html` data-status="${o.status}"` : ''} aria-labelledby="${o.id ?? 'verdict'}-title">
<p class="verdict__state" id="${o.id ?? 'verdict'}-title"><span class="verdict__icon" aria-hidden="true">${ICONS[o.tone]}</span><span>${o.title}</span></p>
<p>${tag(tagLabel(t(o.lang), o.tone), TAG_COLOURS[o.tone])}</p>
<p>${o.body}</p>
${o.extra ?? ''}
</section>`;
}

/**
 * A date in words in the page's language ("2 December 2026", "2 दिसंबर 2026"), in UTC: the words
 * `Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' })` gives for both languages
 * (day, month name, year), from the catalogue's month names rather than a formatter, whose first
 * use in an isolate costs a cold certificate page milliseconds (decision 0327;
 * test/date-words.test.ts compares the two). A year outside 1000–9999 is left to Intl.
 */
const dateText = (iso: string, lang: Lang): string | null => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  if (year < 1000 || year > 9999)
    return new Intl.DateTimeFormat(t(lang).date.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
  return `${date.getUTCDate()} ${t(lang).date.months[date.getUTCMonth()]} ${year}`;
};

/** `dateText` as a `<time>` element; text that is not a date stays as it is. */
export function dateInWords(iso: string, lang: Lang): Html {
  const words = dateText(iso, lang);
  return words === null ? html`${iso}` : html`<time datetime="${iso}">${words}</time>`;
}

/** The date in words for a sentence; text that is not a date stays as it is (a formatter threw). */
const dateSentence = (iso: string, lang: Lang): string => dateText(iso, lang) ?? iso;

/** A domain slug as words ("web-development" → "Web development"); the slug stays its title. */
export function domainInWords(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---------------------------------------------------------------- the signed credential

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The payload of our own VC-JWT (signed by us: read for display, not trusted for the verdict). */
export function decodeJwtPayload(jwt: string): Json | null {
  const part = jwt.split('.')[1];
  if (!part) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(base64UrlBytes(part)));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** The runtime's own base64url decoder where it has one (`Uint8Array.fromBase64`, TC39). */
const fromBase64 = (
  Uint8Array as unknown as { fromBase64?: (text: string, options: { alphabet: 'base64url' }) => Uint8Array }
).fromBase64;

/**
 * A base64url segment's bytes. Natively where the runtime can; else `atob` and a plain loop (a
 * callback per character, as `Uint8Array.from(binary, fn)` makes, cost a cold isolate's page
 * about 2 ms on a 10 KB credential: issue 54).
 */
function base64UrlBytes(part: string): Uint8Array {
  if (fromBase64) return fromBase64(part, { alphabet: 'base64url' });
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export type AssessedCriterion = {
  name: string;
  score: number | null;
  levelName: string | null;
  descriptor: string | null;
};

/** What the certificate page shows from the credential: description, criteria, rubric levels reached, rating. */
export function achievementOf(payload: Json | null) {
  const credential = payload && isRecord(payload.vc) ? payload.vc : payload;
  const subject = credential && isRecord(credential.credentialSubject) ? credential.credentialSubject : {};
  const achievement = isRecord(subject.achievement) ? subject.achievement : {};
  const criteria = isRecord(achievement.criteria) ? str(achievement.criteria.narrative) : null;
  const descriptions = Array.isArray(achievement.resultDescription)
    ? achievement.resultDescription.filter(isRecord)
    : [];
  const results = Array.isArray(subject.result) ? subject.result.filter(isRecord) : [];
  const rubric: AssessedCriterion[] = [];
  let rating: { name: string; value: string } | null = null;
  for (const d of descriptions) {
    const id = str(d.id);
    const result = results.find((r) => r.resultDescription === id);
    if (d.resultType === 'RubricCriterionLevel') {
      const levels = Array.isArray(d.rubricCriterionLevel) ? d.rubricCriterionLevel.filter(isRecord) : [];
      const level = result ? levels.find((l) => l.id === result.achievedLevel) : undefined;
      rubric.push({
        name: str(d.name) ?? '',
        score: level && str(level.points) !== null ? Number(level.points) : null,
        levelName: level ? str(level.name) : null,
        descriptor: level ? str(level.description) : null,
      });
    } else if (result && str(result.value) !== null) {
      rating = { name: str(d.name) ?? '', value: str(result.value) ?? '' };
    }
  }
  const issuer = credential && isRecord(credential.issuer) ? credential.issuer : {};
  return {
    name: str(achievement.name),
    description: str(achievement.description),
    criteria,
    rubric,
    rating,
    issuerWebsite: str(issuer.url),
    credential,
  };
}

// ---------------------------------------------------------------- /verify/{no}

function certificateVerdict(v: VerificationPayload, s: Catalogue, lang: Lang): Html {
  const tone = toneOfStatus(v.status, v.organisation?.verification);
  const org = v.organisation?.name ?? v.employer.name;
  const rejected = v.organisation?.verification === 'rejected';
  const [title, body] = ((): [string, string] => {
    switch (v.status) {
      case 'active':
        return [
          s.verdict.activeTitle,
          v.organisation?.verifiedDomain
            ? s.verdict.activeBodyDomain(org, v.organisation.verifiedDomain)
            : s.verdict.activeBody(org),
        ];
      case 'revoked':
        return [
          s.verdict.revokedTitle,
          v.revokedAt ? s.verdict.revokedBody(dateSentence(v.revokedAt, lang)) : s.verdict.revokedBodyUnknown,
        ];
      case 'expired':
        return [
          s.verdict.expiredTitle,
          s.verdict.expiredBody(v.validUntil ? dateSentence(v.validUntil, lang) : '—'),
        ];
      case 'suspended':
        return rejected
          ? [s.verdict.rejectedTitle, s.verdict.rejectedBody]
          : [s.verdict.suspendedTitle, s.verdict.suspendedBody];
      case 'pending_issuer':
        return rejected
          ? [s.verdict.pendingRejectedTitle, s.verdict.pendingRejectedBody]
          : [s.verdict.pendingTitle, s.verdict.pendingBody];
    }
  })();
  return verdictBox({ tone, title, body, status: v.status, lang });
}

/** The QR code (inline SVG) and the link with a copy button (shown by the script). */
function share(url: string, s: Catalogue): Html {
  const code = encodeQr(url);
  const side = code ? code.size + 8 : 0;
  const qr = code
    ? html`<svg class="share__qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="148" height="148" role="img" aria-label="${s.certificate.qrLabel}" shape-rendering="crispEdges"><rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${qrSvgPath(code)}"/></svg>`
    : '';
  return html`<div class="share">
${qr}
<div class="share__link">
<div class="form-group">
<label class="label" for="share-url">${s.certificate.shareLink}</label>
<input class="input" id="share-url" type="url" readonly value="${url}">
</div>
${button({ text: s.common.copyLink, type: 'button', variant: 'secondary', id: 'copy-link', hidden: true })}
<p id="copy-status" class="secondary" role="status"></p>
</div>
</div>`;
}

/**
 * The in-browser messages of /assets/verify.js in the page's language: a JSON data block (not
 * run, so the CSP's `script-src 'self'` still holds) the script reads, with `{name}` slots it
 * fills. `<` is escaped so no string can end the block.
 */
export function scriptStrings(s: Catalogue): Html {
  const json = JSON.stringify(s.certificate.script).replace(/</g, '\\u003c');
  return html`<script type="application/json" id="verify-strings">${raw(json)}</script>\n`;
}

export type CertificatePageInput = {
  v: VerificationPayload;
  lang: Lang;
  /** The public base URL, without a trailing slash. */
  base: string;
  jwksPath: string;
  /** The DigiLocker document type when this server is a DigiLocker issuer (server-wide, not per viewer). */
  digilockerDocType?: string | null;
  /**
   * Who is looking (pages.viewer.ts): signed in or not, and whether they hold this certificate.
   * Absent: a signed-out visitor, the page every cache may share.
   */
  viewer?: { signedIn: boolean; isHolder: boolean };
};

/**
 * "Awarded to" when the holder has not made their name public: why, and for the holder (signed
 * in) a button that shows it, coming back to this page; a signed-out visitor may be the holder,
 * so they are told where to do it; anyone else signed in is told only why.
 */
function hiddenHolder(
  s: Catalogue,
  lang: Lang,
  certificateNo: string,
  viewer: CertificatePageInput['viewer'],
): Html {
  const c = s.certificate;
  if (viewer?.isHolder)
    return html`<span class="secondary">${c.holderHidden}.</span> <span id="holder-why">${c.holderHiddenWhyYou}</span>
<form method="post" action="${formAction('/me/consents', lang)}" class="holder-control" id="holder-control">
<input type="hidden" name="purpose" value="public_verification">
<input type="hidden" name="action" value="grant">
<input type="hidden" name="return" value="/verify/${certificateNo}">
${button({ text: c.holderShow, variant: 'secondary', id: 'holder-show' })}
</form>
<span class="small">${c.holderShowNote} <a href="${withLang('/me', lang)}#public-name">${c.holderSettings}</a>.</span>`;
  if (viewer?.signedIn)
    return html`<span class="secondary">${c.holderHidden}.</span> <span id="holder-why">${c.holderHiddenWhy}</span>`;
  return html`<span class="secondary">${c.holderHidden}.</span> <span id="holder-why">${c.holderHiddenWhy}</span> <a href="${withLang('/me', lang)}#public-name" id="holder-action">${c.holderHiddenAction}</a>.`;
}

/** `GET /verify/{certificateNo}` for a certificate that exists, in any state. */
export function certificatePage({
  v,
  lang,
  base,
  jwksPath,
  digilockerDocType,
  viewer,
}: CertificatePageInput): string {
  const s = t(lang);
  const c = s.certificate;
  const shareUrl = `${base}/verify/${v.certificateNo}`;
  const payload = v.credential ? decodeJwtPayload(v.credential.jwt) : null;
  const a = achievementOf(payload);
  const title = v.brief.title;
  const image = achievementImageUrl(base, v.brief.id);
  const org = v.organisation;
  const issuerName = org?.name ?? v.employer.name;
  const statusWord = c.statusWords[v.status];

  const holder = v.holder ? html`${v.holder.name}` : hiddenHolder(s, lang, v.certificateNo, viewer);
  const issuer = html`${v.employer.name}${org && org.name !== v.employer.name ? html` <span class="secondary">(${c.nowKnownAs(org.name)})</span>` : ''}${org ? html` · <a href="${issuerUrl(base, org.id)}">${c.issuerProfile}</a>` : ''}${a.issuerWebsite ? html` · <a href="${a.issuerWebsite}" rel="noopener noreferrer">${c.website}</a>` : ''}`;
  const how =
    org?.verification === 'verified'
      ? org.verifiedDomain
        ? c.verifiedDomain(org.verifiedDomain)
        : c.verifiedOrg
      : c.notVerifiedOrg;

  const facts = summaryList(
    [
      { key: c.awardedTo, value: holder, id: 'holder' },
      { key: c.issuedBy, value: issuer, id: 'issuer' },
      { key: c.verifiedBy, value: how, id: 'issuer-verified' },
      {
        key: c.domain,
        value: html`<span title="${v.domain}">${domainInWords(v.domain)}</span>`,
        id: 'domain',
      },
      {
        key: v.status === 'pending_issuer' ? c.earned : c.issued,
        value: dateInWords(v.issuedAt, lang),
        id: 'issued',
      },
      {
        key: v.status === 'expired' ? c.expired : c.validUntil,
        value: v.validUntil ? dateInWords(v.validUntil, lang) : c.noExpiry,
        id: 'valid-until',
      },
      v.revokedAt ? { key: c.revoked, value: dateInWords(v.revokedAt, lang), id: 'revoked' } : null,
      { key: c.number, value: html`<code>${v.certificateNo}</code>`, id: 'number' },
    ],
    'facts',
  );

  const rubric =
    a.rubric.length > 0 || a.rating
      ? html`<h2>${c.rubricHeading}</h2>
<table class="rubric" id="rubric">
<caption class="visually-hidden">${c.rubricCaption}</caption>
<thead><tr><th scope="col">${c.criterion}</th><th scope="col">${c.levelReached}</th></tr></thead>
<tbody>
${a.rubric.map(
  (
    r,
  ) => html`<tr><th scope="row">${r.name}</th><td>${r.score !== null ? html`<strong>${c.outOf5(r.score)}</strong>${r.descriptor ? html`<br><span class="secondary">${r.descriptor}</span>` : ''}` : '—'}</td></tr>
`,
)}${a.rating ? html`<tr><th scope="row">${c.overall(v.employer.name)}</th><td><strong>${c.outOf5(Number(a.rating.value))}</strong></td></tr>\n` : ''}</tbody>
</table>`
      : '';

  const valid = v.status === 'active' && v.credential;
  const badge = `/api/certificates/${v.certificateNo}/badge`;
  const linkedIn = valid
    ? linkedInAddToProfileUrl({
        name: title,
        organisationName: v.employer.name,
        issuedAt: new Date(v.issuedAt),
        expiresAt: v.validUntil ? new Date(v.validUntil) : null,
        certificateNo: v.certificateNo,
        verifyUrl: shareUrl,
      })
    : null;
  const carry = valid
    ? html`<ul class="inline-list" id="carry">
<li><a id="linkedin" href="${linkedIn}" rel="noopener noreferrer" target="_blank">${c.linkedIn}</a></li>
<li><a id="badge-png" href="${badge}.png" download>${c.badgePng}</a></li>
<li><a id="badge-svg" href="${badge}.svg" download>${c.badgeSvg}</a></li>
${viewer?.isHolder ? html`<li><a id="pdf" href="/api/me/certificates/${v.certificateNo}/pdf" download="certificate-${v.certificateNo}.pdf">${c.pdf}</a></li>` : ''}
</ul>
<p class="secondary small">${c.badgeNote}</p>
${
  viewer?.isHolder
    ? html`<p class="small">${c.yourCertificate}</p>
<form method="post" action="${formAction(`/me/certificates/${v.certificateNo}/credential-offer`, lang)}" class="holder-control" id="wallet-form">${button({ text: c.addToWallet, variant: 'secondary', id: 'add-to-wallet' })}</form>`
    : html`<p class="slot small" id="wallet-slot" data-slot="wallets">${c.walletNote} <a href="${withLang('/me', lang)}#wallets">${c.walletNoteLink}</a>.</p>`
}
${digilockerDocType ? html`<p class="slot small" id="digilocker-slot" data-slot="digilocker">${c.digilockerNote(digilockerDocType)}</p>` : ''}`
    : '';

  const technical = v.credential
    ? html`${scriptStrings(s)}<h3>${c.signatureCheck}</h3>
<p id="signature" role="status" data-state="pending" data-status="${v.status}" data-jwks="${jwksPath}" data-base="${base}" data-number="${v.certificateNo}" data-title="${title}" data-employer="${v.employer.name}" data-issued="${v.issuedAt}">${c.signaturePending}</p>
<noscript><p>${c.signatureNoScript}</p></noscript>
<h3>${c.decoded}</h3>
<pre id="credential-json">${payload ? JSON.stringify(a.credential, null, 2) : ''}</pre>
<h3>${c.jwt}</h3>
<p>${c.jwtNote(jwksPath)}</p>
<code class="jwt" id="credential-jwt">${v.credential.jwt}</code>
${button({ text: c.copyCredential, type: 'button', variant: 'secondary', id: 'copy-jwt', hidden: true })}
<p id="copy-jwt-status" class="secondary" role="status"></p>
<p>${c.machineReadable}: <a href="/api/verify/${v.certificateNo}">/api/verify/${v.certificateNo}</a></p>`
    : html`<p class="secondary">${c.unsigned}</p>
<p>${c.machineReadable}: <a href="/api/verify/${v.certificateNo}">/api/verify/${v.certificateNo}</a></p>`;

  const body = html`${certificateVerdict(v, s, lang)}
<div class="certificate">
<div class="certificate__badge"><img src="${image}" width="320" height="320" alt="${c.badgeAlt(title)}"></div>
<div>
<span class="caption">${c.caption} ${v.certificateNo}</span>
<h1 class="certificate__title" id="title">${title}</h1>
${a.description ? html`<p class="lead" id="description">${a.description}</p>` : ''}
</div>
</div>
${facts}
${a.criteria ? html`<h2>${c.criteriaHeading}</h2>\n<p id="criteria">${a.criteria}</p>` : ''}
${rubric}
<h2>${c.shareHeading}</h2>
${share(shareUrl, s)}
${carry}
${details(c.technicalHeading, technical, 'technical')}`;

  return layout({
    title: `${title} (${statusWord})`,
    lang,
    body,
    path: `/verify/${v.certificateNo}`,
    scripts: [VERIFY_SCRIPT_PATH],
    signedIn: viewer?.signedIn ?? false,
    og: {
      title: `${title} · ${v.certificateNo}`,
      description:
        v.status === 'active' ? c.ogDescription(title, issuerName) : c.ogDescriptionInvalid(statusWord),
      url: shareUrl,
      image,
      imageAlt: c.badgeAlt(title),
      type: 'article',
    },
  });
}

// ---------------------------------------------------------------- /verify (any credential)

export type VerifierForm = {
  /** The problems with what was sent (nothing, too large, a link that gave no credential). */
  errors?: { field: 'badge' | 'credential' | 'url'; text: string }[];
  credential?: string;
  /** The link to the badge, as it was given. */
  url?: string;
};

/** A comparison with our own record, for a credential that names one of our certificates. */
export type OwnRecord =
  | { kind: 'current'; certificateNo: string; status: VerificationPayload['status'] }
  | { kind: 'not-current'; certificateNo: string }
  | { kind: 'unknown'; certificateNo: string };

function verifierForm(s: Catalogue, form: VerifierForm): Html {
  const v = s.verifier;
  const errorFor = (field: 'badge' | 'credential' | 'url') => form.errors?.find((e) => e.field === field);
  const fileError = errorFor('badge');
  const textError = errorFor('credential');
  const urlError = errorFor('url');
  return html`<form method="post" action="/verify" enctype="multipart/form-data" id="verifier" novalidate>
<div class="form-group${fileError ? ' form-group--error' : ''}">
<label class="label" for="badge">${v.fileLabel}</label>
<span class="hint" id="badge-hint">${v.fileHint}</span>
${fileError ? html`<span class="error-message" id="badge-error"><span class="visually-hidden">${s.common.error}:</span> ${fileError.text}</span>` : ''}
<input class="file-upload" id="badge" name="badge" type="file" accept="image/png,image/svg+xml,.png,.svg" aria-describedby="badge-hint${fileError ? ' badge-error' : ''}">
</div>
<div class="form-group${textError ? ' form-group--error' : ''}">
<label class="label" for="credential">${v.textLabel}</label>
<span class="hint" id="credential-hint">${v.textHint}</span>
${textError ? html`<span class="error-message" id="credential-error"><span class="visually-hidden">${s.common.error}:</span> ${textError.text}</span>` : ''}
<textarea class="textarea" id="credential" name="credential" rows="5" spellcheck="false" autocomplete="off" aria-describedby="credential-hint">${form.credential ?? ''}</textarea>
</div>
<div class="form-group${urlError ? ' form-group--error' : ''}">
<label class="label" for="url">${v.urlLabel}</label>
<span class="hint" id="url-hint">${v.urlHint}</span>
${urlError ? html`<span class="error-message" id="url-error"><span class="visually-hidden">${s.common.error}:</span> ${urlError.text}</span>` : ''}
<input class="input" id="url" name="url" type="url" inputmode="url" maxlength="2048" spellcheck="false" autocomplete="off" placeholder="https://" value="${form.url ?? ''}" aria-describedby="url-hint${urlError ? ' url-error' : ''}">
</div>
${button({ text: v.submit, id: 'verifier-submit' })}
</form>`;
}

function lookupForm(s: Catalogue, lang: Lang, value = ''): Html {
  return html`<form method="get" action="/verify" id="lookup">
<input type="hidden" name="lang" value="${lang}">
<div class="form-group">
<label class="label" for="lookup-number">${s.verifier.lookupLabel}</label>
<div class="input-row"><input class="input input--width-20" id="lookup-number" name="no" autocomplete="off" spellcheck="false" autocapitalize="characters" placeholder="VP-XXXX-XXXX-XXXX" value="${value}">${button({ text: s.verifier.lookupButton, variant: 'secondary' })}</div>
</div>
</form>`;
}

/**
 * An image shown on the /verify result (decision 0358), as a `data:` URL: the baked badge that was
 * checked (`checked`), or the image the credential carries in itself (`carried`).
 */
export type ShownImage = { src: string; from: 'checked' | 'carried' };

/**
 * The verdict on a presented credential: only what the server's verifier answered. `image`: the
 * baked badge that was checked, or the credential's own `data:` image, shown beside what it claims
 * when its claims are shown at all.
 */
export function reportView(
  report: VerificationReport,
  lang: Lang,
  own?: OwnRecord,
  image?: ShownImage | null,
): Html {
  const s = t(lang);
  const d = s.verdict;
  let tone = toneOfReport(report);
  let [title, body] = ((): [string, string] => {
    switch (report.verdict) {
      case 'valid':
        return report.issuer.verifiedHere
          ? [d.validVerifiedTitle, d.validVerifiedBody]
          : [d.unvettedTitle, d.unvettedBody];
      case 'revoked':
        return [d.anyRevokedTitle, d.anyRevokedBody];
      case 'suspended':
        return [d.anySuspendedTitle, d.anySuspendedBody];
      case 'expired':
        return [d.anyExpiredTitle, d.anyExpiredBody];
      case 'invalid':
        return [d.invalidTitle, d.invalidBody];
      case 'unverifiable':
        return [d.unverifiableTitle, d.unverifiableBody];
    }
  })();
  if (own && report.verdict !== 'invalid') {
    if (own.kind === 'not-current') {
      tone = 'unknown';
      [title, body] = [d.notCurrentTitle, d.notCurrentBody(own.certificateNo)];
    } else if (own.kind === 'unknown') {
      tone = 'unknown';
      [title, body] = [d.unknownCertificateTitle, d.unknownCertificateBody(own.certificateNo)];
    } else if (own.status !== 'active' && report.verdict === 'valid') {
      tone = 'invalid';
      title = s.certificate.statusWords[own.status];
      title = title.charAt(0).toUpperCase() + title.slice(1);
      body = `${s.certificate.number} ${own.certificateNo}: ${s.certificate.ogDescriptionInvalid(s.certificate.statusWords[own.status])}`;
    }
  }
  const failing = failingCheck(report.checks);
  const revocation = revocationOf(report.checks);
  const showClaims = claimsShowable(report.verdict);
  const issuerRows = [
    report.issuer.id
      ? { key: d.issuerId, value: html`<code>${report.issuer.id}</code>`, id: 'issuer-id' }
      : null,
    showClaims && report.issuer.name
      ? {
          key: report.issuer.verifiedHere ? s.certificate.issuedBy : d.issuerNameClaim,
          value: report.issuer.verifiedHere
            ? html`${report.issuer.name}`
            : html`<span class="claim">“${report.issuer.name}”</span> <span class="secondary">${d.ownClaim}</span>`,
          id: 'issuer-name',
        }
      : null,
    report.issuer.verifiedHere
      ? {
          key: d.issuerVerifiedHow,
          value: report.checks.find((c) => c.check === 'issuer')?.detail ?? '',
          id: 'issuer-how',
        }
      : null,
  ];
  const extra = html`${failing && tone !== 'verified' && tone !== 'unvetted' ? html`<p><strong>${d.whyFailed}:</strong> <span id="failing">${failing.detail}</span></p>` : ''}
${revocation === 'none' && showClaims ? html`<p id="revocation" data-revocation="none">${d.noRevocation}</p>` : revocation === 'checked' && report.verdict === 'valid' ? html`<p id="revocation" data-revocation="checked">${d.revocationChecked}</p>` : ''}`;
  const cred = report.credential;
  const v = s.verifier;
  const fetched = report.fetched
    ? summaryList(
        [
          {
            key: v.fetchedFrom,
            value: html`<code>${report.fetched.finalUrl}</code>${report.fetched.mediaType ? html` <span class="secondary">(${report.fetched.mediaType})</span>` : ''}`,
            id: 'fetched-from',
          },
        ],
        'fetched',
      )
    : '';
  const achievementName = cred?.achievement.name || cred?.name || null;
  const claimList = cred
    ? summaryList(
        [
          achievementName ? { key: d.achievement, value: achievementName } : null,
          cred.achievement.description ? { key: d.description, value: cred.achievement.description } : null,
          cred.subjectId ? { key: d.subject, value: html`<code>${cred.subjectId}</code>` } : null,
          cred.validFrom ? { key: d.validFrom, value: dateInWords(cred.validFrom, lang) } : null,
          cred.validUntil ? { key: d.validUntil, value: dateInWords(cred.validUntil, lang) } : null,
        ],
        'claims',
      )
    : '';
  const claims =
    showClaims && cred
      ? html`<h2>${tone === 'verified' ? d.whatItSays : d.whatItClaims}</h2>
${
  image
    ? html`<div class="certificate" id="badge-image-block">
<div class="certificate__badge"><img id="badge-image" src="${image.src}" width="160" height="160" alt="${image.from === 'carried' ? (achievementName ? v.carriedImageAlt(achievementName) : v.carriedImageAltUnnamed) : achievementName ? v.badgeImageAlt(achievementName) : v.badgeImageAltUnnamed}"></div>
<div>${claimList}</div>
</div>
<p class="secondary small" id="badge-image-note">${image.from === 'carried' ? v.carriedImageNote : v.badgeImageNote}</p>`
    : claimList
}`
      : '';
  const checks = html`<table class="table" id="checks">
<caption class="visually-hidden">${d.checksHeading}</caption>
<thead><tr><th scope="col">${d.checkColumn}</th><th scope="col">${d.detailColumn}</th></tr></thead>
<tbody>
${report.checks.map(
  (
    c,
  ) => html`<tr data-check="${c.check}" data-outcome="${c.outcome}"><th scope="row">${d.checkNames[c.check]}<br>${tag(d.checkOutcome[c.outcome], c.outcome === 'passed' ? 'green' : c.outcome === 'failed' ? 'red' : c.outcome === 'skipped' ? 'grey' : 'amber')}</th><td>${c.check === 'issuer' && !showClaims ? html`<code>${report.issuer.id ?? '—'}</code>` : c.detail}</td></tr>
`,
)}</tbody>
</table>
<p class="secondary small">${d.checkedAt}: ${report.checkedAt}${report.algorithm ? ` · ${report.algorithm}` : ''}${report.kid ? html` · <code>${report.kid}</code>` : ''}</p>`;
  return html`<div id="verifier-result" data-verdict="${report.verdict}" data-tone="${tone}">
${verdictBox({ tone, title, body, extra, lang, status: report.verdict })}
${summaryList(issuerRows, 'issuer')}
${fetched}
${claims}
${details(d.checksHeading, checks, 'checks-details')}
</div>`;
}

/** The form's errors for a refusal of `POST /verify` (nothing sent, too large), in the page's language. */
function formErrorsOf(problem: ProblemBody, s: Catalogue): VerifierForm['errors'] {
  if (problem.status === 400) return [{ field: 'badge', text: s.verifier.nothingSent }];
  if (problem.status === 413) return [{ field: 'badge', text: s.verifier.tooLarge }];
  return undefined;
}

/** `GET /verify` (the form) and `POST /verify` (its answer, or its refusal, above the form). */
export function verifierPage(
  lang: Lang,
  o: {
    report?: VerificationReport;
    own?: OwnRecord;
    /** The baked badge that was checked, or the credential's own `data:` image. */
    image?: ShownImage | null;
    form?: VerifierForm;
    problem?: ProblemBody;
    signedIn?: boolean;
  } = {},
): string {
  const s = t(lang);
  const v = s.verifier;
  const form: VerifierForm = { ...o.form };
  if (o.problem && !form.errors) form.errors = formErrorsOf(o.problem, s);
  const other =
    o.problem && !form.errors?.length
      ? notificationBanner({
          type: 'error',
          label: s.common.error,
          heading: o.problem.title,
          body: html`<p>${o.problem.detail}</p>`,
          id: 'problem',
        })
      : '';
  const body = html`${form.errors?.length ? errorSummary({ title: s.common.thereIsAProblem, errors: form.errors.map((e) => ({ href: `#${e.field}`, text: e.text })) }) : ''}
${other}
<h1>${v.title}</h1>
${o.report ? html`<h2>${v.resultHeading}</h2>\n${reportView(o.report, lang, o.own, o.image)}\n<h2>${v.checkAnother}</h2>` : html`<p class="lead">${v.lead}</p>`}
${verifierForm(s, form)}
<p class="secondary small">${v.sentNote}</p>
<h2>${v.lookupHeading}</h2>
${lookupForm(s, lang)}`;
  return layout({
    title: o.report
      ? `${v.resultHeading}: ${o.report.verdict}`
      : form.errors?.length || o.problem
        ? `${s.common.error}: ${v.title}`
        : v.title,
    lang,
    body,
    path: '/verify',
    narrow: true,
    signedIn: o.signedIn ?? false,
  });
}

// ---------------------------------------------------------------- errors of /verify/{no}

/** A mistyped number (400), an unknown one (404), or anything else (429, 500) in the problem's own words. */
export function verifyErrorPage(problem: ProblemBody, input: string, lang: Lang, signedIn = false): string {
  const s = t(lang);
  const n = s.notFound;
  const typo = problem.errors?.some((e) => e.detail === 'Check character mismatch');
  if (problem.status === 400) {
    const title = typo ? n.typoTitle : n.notNumberTitle;
    return layout({
      title,
      lang,
      path: `/verify/${input}`,
      narrow: true,
      signedIn,
      body: html`<h1>${title}</h1>
${notificationBanner({ type: 'error', label: s.common.error, heading: n.nothingLookedUp, body: html`<p>${typo ? n.typoBody : n.notNumberBody}</p>`, id: 'problem' })}
${summaryList([{ key: n.youEntered, value: html`<code>${input}</code>` }])}
<h2>${n.tryAgain}</h2>
${lookupForm(s, lang, input)}`,
    });
  }
  if (problem.status === 404) {
    return layout({
      title: n.unknownTitle,
      lang,
      path: `/verify/${input}`,
      narrow: true,
      signedIn,
      body: html`<h1>${n.unknownTitle}</h1>
${verdictBox({ tone: 'unknown', title: n.unknownLabel, body: n.unknownBody, lang, id: 'problem' })}
${summaryList([{ key: n.number, value: html`<code>${input}</code>` }])}
<h2>${n.tryAgain}</h2>
${lookupForm(s, lang)}`,
    });
  }
  return layout({
    title: problem.title,
    lang,
    narrow: true,
    signedIn,
    body: html`<h1>${problem.title}</h1>
${notificationBanner({ type: 'error', label: s.common.error, heading: problem.title, body: html`<p>${problem.detail}</p>`, id: 'problem' })}
${problem.requestId ? html`<p class="secondary">${s.common.requestId}: <code>${problem.requestId}</code></p>` : ''}
<p><a href="${withLang('/verify', lang)}">${s.site.verify}</a></p>`,
  });
}
