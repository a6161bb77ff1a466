import { describe, expect, it } from 'vitest';
import { contentStems, isImperative, splitSentences, stem, tokenize } from './text';

describe('splitSentences', () => {
  const text = `# Todo API

We need an API, e.g. with Hono. It
must support users (approx. five roles).

Requirements:
- Implement CRUD endpoints.
- Write unit tests
  for every endpoint.
1. Deploy it. Then tell Dr. Smith.`;
  const sentences = splitSentences(text);

  it('returns verbatim, trimmed slices with their offsets', () => {
    for (const s of sentences) {
      expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
      expect(s.text).toBe(s.text.trim());
    }
  });

  it('does not split after abbreviations, and joins wrapped lines', () => {
    const texts = sentences.map((s) => s.text);
    expect(texts).toContain('We need an API, e.g. with Hono.');
    expect(texts).toContain('It\nmust support users (approx. five roles).');
    expect(texts).toContain('Then tell Dr. Smith.');
  });

  it('treats list items as sentences with their lead-in, without the marker', () => {
    const item = sentences.find((s) => s.text.startsWith('Write unit tests'));
    expect(item).toMatchObject({ bullet: true, leadIn: 'Requirements:' });
    expect(item?.text).toBe('Write unit tests\n  for every endpoint.');
    expect(sentences.find((s) => s.text === 'Deploy it.')?.bullet).toBe(true);
  });

  it('marks headings and "…:" lines', () => {
    expect(sentences.find((s) => s.text === 'Todo API')?.heading).toBe(true);
    expect(sentences.find((s) => s.text === 'Requirements:')?.heading).toBe(true);
  });

  it('keeps only the last sentence of a paragraph ending in ":" as the lead-in', () => {
    const s = splitSentences('Run usability tests first. Along the way:\n- keep notes');
    expect(s.map((x) => [x.text, x.heading])).toEqual([
      ['Run usability tests first.', false],
      ['Along the way:', true],
      ['keep notes', false],
    ]);
    expect(s[2]?.leadIn).toBe('Along the way:');
  });

  it('copes with empty and punctuation-only text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n ... \n')).toEqual([]);
  });
});

describe('stem and tokenize', () => {
  it('makes inflections meet', () => {
    expect(new Set(['test', 'tests', 'testing', 'tested'].map(stem))).toEqual(new Set(['test']));
    expect(new Set(['document', 'documents', 'documentation', 'documented'].map(stem)).size).toBe(1);
    expect(stem('accessibility')).toBe(stem('accessible'));
    expect(stem('deployment')).toBe(stem('deployed'));
    expect(stem('queries')).toBe(stem('query'));
    // …but keep apart words that only look alike.
    expect(stem('responsive')).not.toBe(stem('response'));
  });

  it('leaves short words and vowel-less stems alone', () => {
    expect(stem('need')).toBe('need');
    expect(stem('string')).toBe('string');
    expect(stem('status')).toBe('status');
  });

  it('splits identifiers but keeps the whole word', () => {
    expect(tokenize('getUserById TalkBack')).toEqual([
      'getuserbyid',
      'get',
      'user',
      'by',
      'id',
      'talkback',
      'talk',
      'back',
    ]);
    expect(tokenize('TalkBack', { parts: false })).toEqual(['talkback']);
  });

  it('drops stopwords and requirement cues from content words', () => {
    expect(contentStems('The API must return JSON errors')).toEqual(['api', 'return', 'json', 'error']);
  });
});

describe('isImperative', () => {
  it('recognises instructions', () => {
    expect(isImperative('Write unit tests for every endpoint.')).toBe(true);
    expect(isImperative('Finally, present your findings.')).toBe(true);
    expect(isImperative('Before you hand over, run usability tests.')).toBe(true);
    expect(isImperative('The app is built with React Native.')).toBe(false);
  });
});
