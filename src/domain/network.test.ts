import { describe, expect, it } from 'vitest';
import { clientNetwork } from './network';

describe('clientNetwork', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientNetwork('198.51.100.7')).toBe('198.51.100.7');
    expect(clientNetwork(' 203.0.113.9 ')).toBe('203.0.113.9');
  });

  it('counts every address of an IPv6 /64 as one network', () => {
    const a = clientNetwork('2001:db8:1234:5678::1');
    expect(a).toBe('2001:db8:1234:5678::/64');
    expect(clientNetwork('2001:0db8:1234:5678:ffff:eeee:dddd:cccc')).toBe(a);
    expect(clientNetwork('2001:DB8:1234:5678:0:0:0:abcd')).toBe(a);
    expect(clientNetwork('2001:db8:1234:5678::1%eth0')).toBe(a);
    // A neighbouring /64 is another network.
    expect(clientNetwork('2001:db8:1234:5679::1')).toBe('2001:db8:1234:5679::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('treats IPv4-mapped IPv6 as the IPv4 address', () => {
    expect(clientNetwork('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientNetwork('::ffff:c000:0201')).toBe('192.0.2.1');
  });

  it('puts missing and malformed values in one shared bucket', () => {
    for (const bad of [
      undefined,
      null,
      '',
      'localhost',
      '999.1.1.1',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      'g::1',
      '::ffff:1.2.3',
    ])
      expect(clientNetwork(bad)).toBe('unknown');
  });
});
