import { describe, expect, it } from 'vitest';
import { checkTargetUrl, forbiddenAddressReason } from './targets';

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
  ])('%s is %s', (address, why) => {
    expect(forbiddenAddressReason(address)).toBe(why);
  });

  it.each(['93.184.215.14', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(forbiddenAddressReason(address)).toBeNull();
    },
  );
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
});
