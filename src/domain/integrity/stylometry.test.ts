import { describe, expect, it } from 'vitest';
import {
  EDITED_COPY,
  INDEPENDENT_ESSAY,
  ORIGINAL_ESSAY,
  PLAIN_ENGLISH_ESSAY,
  TEMPLATED_TEXT,
  UNRELATED_ESSAYS,
} from './fixtures/prose';
import {
  aiContentSignal,
  MAX_AI_RISK,
  MIN_WORDS,
  SHORT_TEXT_RISK_CAP,
  stylometricFeatures,
} from './stylometry';

const HUMAN_TEXTS = [ORIGINAL_ESSAY, EDITED_COPY, INDEPENDENT_ESSAY, ...UNRELATED_ESSAYS];
const EXPECTED_FEATURES = [
  'wordCount',
  'sentenceCount',
  'sentenceLengthMean',
  'sentenceLengthCv',
  'mattr',
  'functionWordRate',
  'hapaxRatio',
  'avgWordLength',
  'punctuationDiversity',
  'repeatedTrigramRate',
  'aiPhraseRate',
  'connectiveOpenerShare',
];

describe('stylometricFeatures', () => {
  it('computes every feature as a finite number, for any input', () => {
    for (const text of [
      ...HUMAN_TEXTS,
      TEMPLATED_TEXT,
      '',
      '   ',
      '!!! ...',
      'word',
      '数据 和 文本。',
      '\u0000\uFFFF',
    ]) {
      const features = stylometricFeatures(text);
      expect(Object.keys(features)).toEqual(EXPECTED_FEATURES);
      for (const value of Object.values(features)) expect(Number.isFinite(value)).toBe(true);
    }
  });

  it('measures what it says on realistic text', () => {
    const f = stylometricFeatures(ORIGINAL_ESSAY);
    expect(f.wordCount).toBeGreaterThan(300);
    expect(f.wordCount).toBeLessThan(600);
    expect(f.sentenceCount).toBeGreaterThan(20);
    expect(f.mattr).toBeGreaterThan(0.7);
    expect(f.mattr).toBeLessThanOrEqual(1);
    expect(f.functionWordRate).toBeGreaterThan(0.3);
    expect(f.functionWordRate).toBeLessThan(0.6);
    expect(f.avgWordLength).toBeGreaterThan(3.5);
    expect(f.avgWordLength).toBeLessThan(6);
  });

  it('finds templated text even, repetitive and full of stock connectives', () => {
    const human = stylometricFeatures(ORIGINAL_ESSAY);
    const templated = stylometricFeatures(TEMPLATED_TEXT);
    expect(templated.sentenceLengthCv).toBeLessThan(human.sentenceLengthCv!);
    expect(templated.repeatedTrigramRate).toBeGreaterThan(human.repeatedTrigramRate!);
    expect(templated.aiPhraseRate).toBeGreaterThan(human.aiPhraseRate!);
    expect(templated.connectiveOpenerShare).toBeGreaterThan(0.5);
  });

  it('uses a length-robust type-token ratio', () => {
    const once = stylometricFeatures(ORIGINAL_ESSAY).mattr!;
    const twice = stylometricFeatures(`${ORIGINAL_ESSAY}\n\n${ORIGINAL_ESSAY}`).mattr!;
    expect(Math.abs(once - twice)).toBeLessThan(0.02);
  });
});

describe('aiContentSignal', () => {
  it('scores a templated, connective-heavy text above varied human writing', () => {
    const templated = aiContentSignal(TEMPLATED_TEXT);
    expect(templated.risk).toBeGreaterThanOrEqual(0.7);
    expect(templated.risk).toBeLessThanOrEqual(MAX_AI_RISK);
    for (const text of HUMAN_TEXTS) {
      const human = aiContentSignal(text);
      expect(human.risk).toBeLessThan(0.2);
      expect(human.risk).toBeLessThan(templated.risk);
    }
  });

  it('keeps plain second-language English well below the templated text, and says the signal is soft', () => {
    // The known failure mode: simple vocabulary and regular sentences read as "machine-like".
    // The weights keep such writing low, but it does score above the native essays.
    const plain = aiContentSignal(PLAIN_ENGLISH_ESSAY);
    expect(plain.risk).toBeLessThan(0.35);
    expect(plain.risk).toBeGreaterThan(aiContentSignal(ORIGINAL_ESSAY).risk);
    expect(plain.evidence.soft).toBe(true);
    expect(plain.evidence.notes.join(' ')).toMatch(/non-native/);
  });

  it('caps the risk of short texts and says why', () => {
    const short =
      'Moreover, it is important to note that this is crucial. Furthermore, it is pivotal. In conclusion, delve.';
    const signal = aiContentSignal(short);
    expect(signal.evidence.features.wordCount).toBeLessThan(MIN_WORDS);
    expect(signal.risk).toBeLessThanOrEqual(SHORT_TEXT_RISK_CAP);
    expect(signal.evidence.notes.some((n) => n.startsWith('Low confidence'))).toBe(true);
  });

  it('gives empty text no risk and never NaN', () => {
    for (const text of ['', '   \n ', '...', '1 2 3']) {
      const signal = aiContentSignal(text);
      expect(signal.risk).toBe(0);
      expect(signal.evidence.notes.length).toBeGreaterThan(0);
    }
    for (const text of ['a', 'a.', 'Yes. No. Maybe.', TEMPLATED_TEXT.slice(0, 30)]) {
      const { risk, evidence } = aiContentSignal(text);
      expect(Number.isNaN(risk)).toBe(false);
      expect(risk).toBeGreaterThanOrEqual(0);
      expect(risk).toBeLessThanOrEqual(1);
      for (const value of Object.values(evidence.features)) expect(Number.isFinite(value)).toBe(true);
    }
  });

  it('is deterministic', () => {
    expect(aiContentSignal(INDEPENDENT_ESSAY)).toEqual(aiContentSignal(INDEPENDENT_ESSAY));
    expect(aiContentSignal(TEMPLATED_TEXT)).toEqual(aiContentSignal(TEMPLATED_TEXT));
  });
});
