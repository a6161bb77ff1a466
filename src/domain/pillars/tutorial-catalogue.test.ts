import { describe, expect, it } from 'vitest';
import {
  ALL_TUTORIAL_URLS,
  CATALOGUE_DOMAINS,
  catalogueFor,
  normaliseDomain,
  TUTORIAL_CATALOGUE,
} from './tutorial-catalogue';

describe('tutorial catalogue', () => {
  const all = Object.values(TUTORIAL_CATALOGUE).flat();

  it('has every URL as https, well-formed and listed once', () => {
    for (const { url } of all) {
      expect(new URL(url).protocol, url).toBe('https:');
    }
    expect(new Set(all.map((e) => e.url)).size).toBe(all.length);
    expect(ALL_TUTORIAL_URLS.size).toBe(all.length);
  });

  it('gives every entry a title and keywords', () => {
    for (const entry of all) {
      expect(entry.title.length).toBeGreaterThan(3);
      expect(entry.keywords.length).toBeGreaterThan(0);
    }
  });

  it('covers the required domains', () => {
    for (const domain of CATALOGUE_DOMAINS)
      expect(TUTORIAL_CATALOGUE[domain].length, domain).toBeGreaterThanOrEqual(8);
  });

  it('normalises free-form domains', () => {
    expect(normaliseDomain('Web Development')).toBe('web-development');
    expect(normaliseDomain('web')).toBe('web-development');
    expect(normaliseDomain('Frontend')).toBe('web-development');
    expect(normaliseDomain('front-end')).toBe('web-development');
    expect(normaliseDomain('Back End')).toBe('backend');
    expect(normaliseDomain('Data Science')).toBe('data-science');
    expect(normaliseDomain('machine learning')).toBe('data-science');
    expect(normaliseDomain('iOS')).toBe('mobile');
    expect(normaliseDomain('UX/UI Design')).toBe('design');
    expect(normaliseDomain('DevOps')).toBe('devops');
    expect(normaliseDomain('Cyber Security')).toBe('security');
    expect(normaliseDomain('basket weaving')).toBe('general');
    expect(normaliseDomain('')).toBe('general');
  });

  it('lists the domain first, then neighbours, then general practice', () => {
    const web = catalogueFor('frontend');
    expect(web[0]?.url).toBe(TUTORIAL_CATALOGUE['web-development'][0]?.url);
    expect(web.map((e) => e.url)).toEqual(
      expect.arrayContaining(TUTORIAL_CATALOGUE.general.map((e) => e.url)),
    );
    expect(catalogueFor('basket weaving')).toEqual(TUTORIAL_CATALOGUE.general);
  });
});
