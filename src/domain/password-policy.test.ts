import { describe, expect, it } from 'vitest';
import { checkPassword, MIN_SCORE, PASSWORD_MIN_LENGTH } from './password-policy';

const reason = (password: string, context: string[] = []) => {
  const verdict = checkPassword(password, context);
  return verdict.ok ? null : verdict.reason;
};

describe('checkPassword', () => {
  it('refuses passwords shorter than the minimum', () => {
    expect(reason('Xk9#mQ2')).toContain(`at least ${PASSWORD_MIN_LENGTH} characters`);
  });

  it('refuses long but guessable passwords, saying why', () => {
    expect(reason('aaaaaaaaaa')).toMatch(/repeats a character/);
    expect(reason('1234567890')).toMatch(/hundred most used passwords/);
    expect(reason('qwertyuiop')).toMatch(/hundred most used passwords/);
    expect(reason('password123')).toMatch(/commonly used password/);
    expect(reason('letmein12345')).toMatch(/close to a commonly used password/);
    expect(reason('aaaaaaaaaa')).toContain(`at least ${MIN_SCORE} is required`);
  });

  it('refuses a password built from the account’s own email or name', () => {
    const context = ['ravindranath.k@example.com', 'Ravindranath Kumar'];
    expect(reason('ravindranath2024', context)).not.toBeNull();
    expect(reason('ravindranath2024')).toBeNull();
  });

  it('accepts passphrases and random strings', () => {
    for (const good of ['correct horse battery', 'a-long-enough-password', 'Tr0ub4dor&3x-plus'])
      expect(reason(good)).toBeNull();
  });
});
