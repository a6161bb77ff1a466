/**
 * The integrity pillar's algorithms: winnowing fingerprints for plagiarism, stylometry for
 * AI-content (a soft signal), commit-history checks, and the combination into a score and a
 * verdict. Thresholds and their reasons are in README.md beside this file.
 */

import { CODE_K, CODE_W, PROSE_K, PROSE_W } from './winnowing';

export * from './score';
export * from './stylometry';
export * from './vcs';
export * from './winnowing';

/** Names the algorithms and parameters behind a result, for the response's `engine` field. */
export const INTEGRITY_ENGINE = `integrity/1 (winnowing prose k=${PROSE_K} w=${PROSE_W}, code k=${CODE_K} w=${CODE_W}; stylometry; vcs-history)`;
