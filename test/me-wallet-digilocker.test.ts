/**
 * The holder's home's wallet and DigiLocker sections (issues 56, 57): each certificate's "Add to
 * a wallet" form answers a page with the OID4VCI offer (QR code, link, transaction code), the
 * DigiLocker switch is a form that changes the same column as the JSON API and comes back with a
 * 303, GETs change nothing, the CSRF rule holds, and /verify/{no} says both in public words.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { certificates, credentialOffers } from '../src/db/schema';
import { DIGILOCKER, digilockerEnv } from './doubles/digilocker';
import { candidateWithCertificate, consent, db, signup } from './harness';
import { type Account, as, BASE, call } from './helpers';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function post(path: string, account: Account, fields: Record<string, string> = {}, headers = as(account)) {
  return call(path, {
    method: 'POST',
    redirect: 'manual',
    headers: { accept: BROWSER, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
}

const section = (html: string, id: string) => {
  const start = html.indexOf(`<section id="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
};

/** The app with DigiLocker configured (it is not in wrangler.toml). */
async function configured(path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(new URL(path, BASE), init), digilockerEnv(), ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const switchOf = async (certificateNo: string) =>
  (
    await db()
      .select({ on: certificates.digilockerEnabled })
      .from(certificates)
      .where(eq(certificates.certificateNo, certificateNo))
  )[0]?.on;

const offerCount = async () => (await db().select({ id: credentialOffers.id }).from(credentialOffers)).length;

describe('/me wallets and DigiLocker', () => {
  let holder: Account;
  let certificateNo: string;
  beforeAll(async () => {
    const issued = await candidateWithCertificate('Wallet Holder', { title: 'Wallet <Ready> Work' });
    holder = issued.candidate;
    certificateNo = issued.certificateNo;
  });

  it('renders both sections for a holder with a certificate; DigiLocker says plainly when it is not set up', async () => {
    const res = await call('/me', { headers: { accept: BROWSER, cookie: holder.cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const wallets = section(html, 'wallets');
    expect(wallets).toContain(
      `<form method="post" action="/me/certificates/${certificateNo}/credential-offer?lang=en">`,
    );
    expect(wallets).toContain('Add to a wallet');
    expect(wallets).toContain('Wallet &lt;Ready&gt; Work');
    const digilocker = section(html, 'digilocker');
    expect(digilocker).toContain('id="digilocker-not-configured"');
    expect(digilocker).toContain('not set up as a DigiLocker issuer');
    expect(digilocker).not.toContain('<form');
    expect(html).toContain('href="#wallets"');
    // Hindi has both sections too.
    const hindi = await (
      await call('/me?lang=hi', { headers: { accept: BROWSER, cookie: holder.cookie } })
    ).text();
    expect(section(hindi, 'wallets')).toContain('वॉलेट में जोड़ें');
    expect(section(hindi, 'digilocker')).toContain('डिजीलॉकर जारीकर्ता');
  });

  it('with DigiLocker set up, shows the document type, the UDF1 number and the switch', async () => {
    const res = await configured('/me', { headers: { accept: BROWSER, cookie: holder.cookie } });
    expect(res.status).toBe(200);
    const digilocker = section(await res.text(), 'digilocker');
    expect(digilocker).toContain(`<code>${DIGILOCKER.DIGILOCKER_DOC_TYPE}</code>`);
    expect(digilocker).toContain(`<code>${certificateNo}</code>`);
    expect(digilocker).toContain('UDF1');
    expect(digilocker).toContain(
      `<form method="post" action="/me/certificates/${certificateNo}/digilocker?lang=en">`,
    );
    expect(digilocker).toContain('<input type="hidden" name="enabled" value="off">');
  });

  it('the DigiLocker form turns fetching off and on (the same column as the JSON API) and comes back with a 303', async () => {
    expect(await switchOf(certificateNo)).toBe(true);
    const off = await post(`/me/certificates/${certificateNo}/digilocker`, holder, { enabled: 'off' });
    expect(off.status).toBe(303);
    expect(off.headers.get('location')).toBe('/me?notice=digilocker-off#digilocker');
    expect(await switchOf(certificateNo)).toBe(false);
    const page = await configured('/me', { headers: { accept: BROWSER, cookie: holder.cookie } });
    const digilocker = section(await page.text(), 'digilocker');
    expect(digilocker).toContain('Turned off by you');
    expect(digilocker).toContain('<input type="hidden" name="enabled" value="on">');
    const on = await post(`/me/certificates/${certificateNo}/digilocker`, holder, { enabled: 'on' });
    expect(on.headers.get('location')).toBe('/me?notice=digilocker-on#digilocker');
    expect(await switchOf(certificateNo)).toBe(true);
  });

  it('refuses another holder’s certificate with an error banner, changing nothing', async () => {
    const other = await signup('candidate', 'Not The Holder');
    const res = await post(`/me/certificates/${certificateNo}/digilocker`, other, { enabled: 'off' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/me?error=certificate-unknown#digilocker');
    expect(await switchOf(certificateNo)).toBe(true);
    const offer = await post(`/me/certificates/${certificateNo}/credential-offer`, other);
    expect(offer.headers.get('location')).toBe('/me?error=certificate-unknown#wallets');
  });

  it('the wallet form answers a page with the QR code, the offer URI and a six-digit transaction code', async () => {
    const before = await offerCount();
    const res = await post(`/me/certificates/${certificateNo}/credential-offer`, holder);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toMatch(
      /<svg class="share__qr" id="offer-qr"[^>]*><rect [^>]*\/><path fill="#000" d="M[^"]+"\/><\/svg>/,
    );
    const uri = /<a id="offer-uri" href="([^"]+)">/.exec(html)?.[1]?.replaceAll('&amp;', '&');
    expect(uri).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    expect(html).toMatch(/<strong id="tx-code" class="me-address">\d{6}<\/strong>/);
    expect(html).toContain('expires in 10 minutes');
    expect(html).not.toContain('<script');
    expect(await offerCount()).toBe(before + 1);
    // The offer is live: a wallet can fetch its document.
    const offerUrl = new URL(decodeURIComponent(uri!.split('credential_offer_uri=')[1]!));
    const document = await call(offerUrl.pathname);
    expect(document.status).toBe(200);
  });

  it('GET on the form routes changes nothing (405)', async () => {
    const before = await offerCount();
    for (const path of [
      `/me/certificates/${certificateNo}/digilocker`,
      `/me/certificates/${certificateNo}/credential-offer`,
    ]) {
      const res = await call(path, { headers: { accept: BROWSER, cookie: holder.cookie } });
      expect(res.status, path).toBe(405);
    }
    expect(await offerCount()).toBe(before);
    expect(await switchOf(certificateNo)).toBe(true);
  });

  it('refuses a form without an allowed Origin (CSRF), changing nothing', async () => {
    const before = await offerCount();
    const noOrigin = { cookie: holder.cookie };
    const dl = await post(
      `/me/certificates/${certificateNo}/digilocker`,
      holder,
      { enabled: 'off' },
      noOrigin,
    );
    expect(dl.status).toBe(403);
    expect(await dl.text()).toContain('This form was not sent from this site');
    const offer = await post(`/me/certificates/${certificateNo}/credential-offer`, holder, {}, noOrigin);
    expect(offer.status).toBe(403);
    expect(await switchOf(certificateNo)).toBe(true);
    expect(await offerCount()).toBe(before);
  });

  it('/verify/{no} says both in public words, without anything per viewer', async () => {
    const plain = await (await call(`/verify/${certificateNo}`, { headers: { accept: BROWSER } })).text();
    expect(plain).toContain(
      'Its holder can download the PDF and add this certificate to a wallet from <a href="/me?lang=en#wallets">',
    );
    expect(plain).not.toContain('id="add-to-wallet"');
    // Signed in, the holder gets the button and the PDF on the page itself (a private page).
    const mine = await call(`/verify/${certificateNo}`, {
      headers: { accept: BROWSER, cookie: holder.cookie },
    });
    expect(mine.headers.get('cache-control')).toBe('private, no-cache');
    const own = await mine.text();
    expect(own).toContain(
      `<form method="post" action="/me/certificates/${certificateNo}/credential-offer?lang=en" class="holder-control" id="wallet-form">`,
    );
    expect(own).toContain(`<a id="pdf" href="/api/me/certificates/${certificateNo}/pdf"`);
    expect(own).not.toContain('id="wallet-slot"');
    expect(plain).not.toContain('id="digilocker-slot"');
    await consent(holder, 'public_verification');
    const res = await configured(`/verify/${certificateNo}`, { headers: { accept: BROWSER } });
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const html = await res.text();
    expect(html).toContain(`id="digilocker-slot"`);
    expect(html).toContain(`document type ${DIGILOCKER.DIGILOCKER_DOC_TYPE}`);
  });
});
