import { describe, expect, it } from 'vitest';
import { checkTargetUrl, forbiddenAddressReason, isLoopbackHost } from './targets';

describe('forbiddenAddressReason', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local (cloud metadata)'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:0a00:0001::1', 'private'],
    ['2001:db8::1', 'documentation'],
    // IPv4 inside IPv6 beyond ::ffff:0:0/96 and 64:ff9b::/96.
    ['64:ff9b:1::a9fe:a9fe', 'NAT64 local-use'],
    ['64:ff9b:1::a00:1', 'NAT64 local-use'],
    ['64:ff9b:1:ffff::8.8.8.8', 'NAT64 local-use'],
    ['::ffff:0:a9fe:a9fe', 'link-local (cloud metadata)'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001::a9fe:a9fe', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
  ])('%s is %s', (address, why) => {
    expect(forbiddenAddressReason(address)).toBe(why);
  });

  it.each([
    '93.184.215.14',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2001:4860:4860::8888',
  ])('%s is public', (address) => {
    expect(forbiddenAddressReason(address)).toBeNull();
  });
});

describe('forbiddenAddressReason fails closed on what is not a canonical IP address (issue 51)', () => {
  it.each([
    '127.1',
    '0x7f000001',
    '2130706433',
    '0177.0.0.1',
    '127.000.000.001',
    ' 8.8.8.8',
    '8.8.8.8 ',
    '8.8.8.8.',
    'example.com',
    'example.com.',
    'fe80::1%eth0',
    '',
    '::ffff:127.0.0.1 ',
    '[::1]',
  ])('%j is refused', (address) => {
    expect(forbiddenAddressReason(address)).not.toBeNull();
  });
});

describe('checkTargetUrl', () => {
  const prod = { allowHttpLocalhost: false };
  const dev = { allowHttpLocalhost: true };
  it('accepts https at a public literal or a name (to be resolved)', () => {
    expect(checkTargetUrl('https://hooks.example.com/x', prod)).toMatchObject({
      ok: true,
      needsResolution: true,
    });
    expect(checkTargetUrl('https://1.1.1.1/x', prod)).toMatchObject({ ok: true, needsResolution: false });
  });
  it('refuses http, loopback names and private literals', () => {
    for (const url of [
      'http://hooks.example.com',
      'https://localhost',
      'https://10.0.0.1',
      'https://[::1]:8443',
    ])
      expect(checkTargetUrl(url, prod).ok, url).toBe(false);
  });
  it('allows http to loopback only in development', () => {
    expect(checkTargetUrl('http://localhost:3000/h', dev)).toMatchObject({ ok: true });
    expect(checkTargetUrl('http://127.0.0.1:3000/h', dev)).toMatchObject({ ok: true });
    expect(checkTargetUrl('http://localhost:3000/h', prod).ok).toBe(false);
    expect(checkTargetUrl('http://hooks.example.com', dev).ok).toBe(false);
    expect(checkTargetUrl('https://10.0.0.1', dev).ok).toBe(false);
  });
  it('refuses NAT64 local-use, SIIT and Teredo literals of private space', () => {
    for (const url of [
      'https://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/',
      'https://[64:ff9b:1::a00:1]/hook',
      'https://[::ffff:0:a9fe:a9fe]/',
      'https://[2001::a9fe:a9fe]/',
    ])
      expect(checkTargetUrl(url, prod).ok, url).toBe(false);
  });
  it('takes a host name that only looks like loopback for a name (https, resolved before delivery)', () => {
    for (const url of [
      'http://127.evil.example/x',
      'http://127.0.0.1.nip.io:9388/nip',
      'http://localhost.evil.example/',
    ])
      expect(checkTargetUrl(url, dev).ok, url).toBe(false);
    expect(checkTargetUrl('https://127.0.0.1.nip.io/x', dev)).toMatchObject({
      ok: true,
      needsResolution: true,
    });
    expect(checkTargetUrl('https://127.evil.example/x', prod)).toMatchObject({
      ok: true,
      needsResolution: true,
    });
    expect(checkTargetUrl('http://[::1]:3000/h', dev)).toMatchObject({ ok: true, needsResolution: false });
    expect(checkTargetUrl('http://api.localhost:3000/h', dev)).toMatchObject({
      ok: true,
      needsResolution: false,
    });
  });
});

describe('isLoopbackHost', () => {
  it.each(['localhost', 'api.localhost', '127.0.0.1', '127.8.9.10', '::1', '[::1]', '[0:0:0:0:0:0:0:1]'])(
    '%s is loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );
  it.each([
    '127.evil.example',
    '127.0.0.1.nip.io',
    '127.0.0.1.example',
    'localhost.evil.example',
    'localhost.localdomain',
    '1127.0.0.1',
    '127',
    '128.0.0.1',
    '[::2]',
  ])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
