import { describe, expect, it } from 'vitest';
import { fieldForDomain } from './knowledge/detect';
import { FIELD_KEYS, FIELDS } from './knowledge/fields';
import {
  ALL_TUTORIAL_URLS,
  ALLOWED_HOSTS,
  catalogueFor,
  linksFor,
  TUTORIAL_CATALOGUE,
  TUTORIAL_ENTRIES,
} from './tutorial-catalogue';

describe('tutorial catalogue', () => {
  it('has every entry in shape: https on an allowed host, no query or credentials, listed once', () => {
    for (const { url } of TUTORIAL_ENTRIES) {
      const parsed = new URL(url);
      expect(parsed.protocol, url).toBe('https:');
      expect(ALLOWED_HOSTS.has(parsed.hostname), `${parsed.hostname} is allowed`).toBe(true);
      expect(parsed.username + parsed.password + parsed.search + parsed.hash, url).toBe('');
      expect(url, 'no whitespace').not.toMatch(/\s/);
    }
    expect(new Set(TUTORIAL_ENTRIES.map((e) => e.url)).size).toBe(TUTORIAL_ENTRIES.length);
    expect(ALL_TUTORIAL_URLS.size).toBe(TUTORIAL_ENTRIES.length);
  });

  it('gives every entry a title, at least one known field, topics and keywords', () => {
    for (const entry of TUTORIAL_ENTRIES) {
      expect(entry.title.length, entry.url).toBeGreaterThan(3);
      expect(entry.fields.length, entry.url).toBeGreaterThan(0);
      for (const f of entry.fields) expect(FIELD_KEYS as readonly string[]).toContain(f);
      expect(entry.fields, 'general has no links').not.toContain('unknown');
      expect(entry.topics.length, entry.url).toBeGreaterThan(0);
      expect(entry.keywords.length, entry.url).toBeGreaterThan(0);
    }
  });

  it('covers every field of the knowledge base, and every topic an archetype asks for', () => {
    for (const field of FIELDS) {
      expect(TUTORIAL_CATALOGUE[field.key].length, field.key).toBeGreaterThanOrEqual(5);
      const topics = new Set(TUTORIAL_CATALOGUE[field.key].flatMap((e) => e.topics));
      for (const t of [...field.setupTopics, ...field.archetypes.flatMap((a) => a.topics)])
        expect(topics.has(t), `${field.key} has a link for ${t}`).toBe(true);
    }
    expect(TUTORIAL_CATALOGUE.unknown).toEqual([]);
  });

  it('never gives a field a page of another field', () => {
    const android = catalogueFor('mobile-android').map((e) => new URL(e.url).hostname);
    expect(android).not.toContain('developer.apple.com');
    const marketing = catalogueFor('marketing').map((e) => e.url);
    expect(marketing.some((u) => /semver|git-scm|docs\.github/.test(u))).toBe(false);
    expect(linksFor('mobile-android', ['ios-accessibility'])).toEqual([]);
    const crossPlatform = catalogueFor('mobile-cross-platform').map((e) => new URL(e.url).hostname);
    expect(crossPlatform).not.toContain('developer.android.com');
    expect(crossPlatform).not.toContain('developer.apple.com');
    const sales = catalogueFor('sales').map((e) => e.url);
    expect(sales.some((u) => /semver|git-scm|docs\.github/.test(u))).toBe(false);
    expect(linksFor('unknown', ['web-basics'])).toEqual([]);
  });

  it('ranks links by topic order and prefers pages not yet used', () => {
    const first = linksFor('data-science', ['model-evaluation', 'cross-validation']);
    expect(first[0]).toBe('https://scikit-learn.org/stable/modules/model_evaluation.html');
    const again = linksFor(
      'data-science',
      ['model-evaluation', 'cross-validation'],
      new Set(first.slice(0, 1)),
    );
    expect(again[0]).toBe('https://scikit-learn.org/stable/modules/cross_validation.html');
  });

  it('reads free-form domains as fields', () => {
    expect(fieldForDomain('Web Development')).toBe('web-development');
    expect(fieldForDomain('Frontend')).toBe('web-development');
    expect(fieldForDomain('Back End')).toBe('backend');
    expect(fieldForDomain('Data Science')).toBe('data-science');
    expect(fieldForDomain('iOS')).toBe('mobile-ios');
    expect(fieldForDomain('Android (Kotlin)')).toBe('mobile-android');
    expect(fieldForDomain('UX research')).toBe('ux-research');
    expect(fieldForDomain('UI design')).toBe('visual-design');
    expect(fieldForDomain('DevOps')).toBe('devops');
    expect(fieldForDomain('Cyber Security')).toBe('security');
    expect(fieldForDomain('FP&A')).toBe('finance');
    expect(fieldForDomain('Copywriting')).toBe('marketing');
    expect(fieldForDomain('Technical writing')).toBe('technical-writing');
    expect(fieldForDomain('deep learning')).toBe('ml-research');
    expect(fieldForDomain('React Native')).toBe('mobile-cross-platform');
    expect(fieldForDomain('react-native')).toBe('mobile-cross-platform');
    expect(fieldForDomain('Flutter')).toBe('mobile-cross-platform');
    expect(fieldForDomain('Sales')).toBe('sales');
    expect(fieldForDomain('Writing')).toBe('content-writing');
    expect(fieldForDomain('Content writing')).toBe('content-writing');
    expect(fieldForDomain('Content marketing')).toBe('marketing');
    expect(fieldForDomain('mobile')).toBe('unknown');
    expect(fieldForDomain('basket weaving')).toBe('unknown');
    expect(fieldForDomain('')).toBe('unknown');
  });
});
