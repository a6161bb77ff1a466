import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, retryDelaySeconds } from './schedule';
import { generateSecret, sign, webhookHeaders } from './signing';

describe('Standard Webhooks signing', () => {
  it('matches the specification’s test vector', async () => {
    const signature = await sign(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('produces headers the official library verifies, with every secret that signed', async () => {
    const [a, b] = [generateSecret(), generateSecret()];
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b);
    const body = JSON.stringify({ type: 'webhook.ping', data: { endpointId: 'e1' } });
    const headers = await webhookHeaders([a, b], 'msg_1', new Date(), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(a).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(b).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(`${body} `, headers)).toThrow();
  });
});

describe('the retry schedule', () => {
  it('spans more than 24 hours before the dead letter', () => {
    expect(RETRY_DELAYS_SECONDS.reduce((s, d) => s + d, 0)).toBeGreaterThan(24 * 3600);
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelaySeconds)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retryDelaySeconds(MAX_ATTEMPTS)).toBeNull();
  });
});
