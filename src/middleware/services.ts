import { type Database, getDb } from '../db/client';
import { pillarEngine } from '../services/pillars';
import type { PillarEngine } from '../services/pillars/engine';

// Bindings are the same objects for the life of an isolate, so each handle is built once per
// binding rather than once per request (the public hot paths pay nothing for it).
const databases = new WeakMap<D1Database, Database>();
const engines = new WeakMap<object, PillarEngine>();

/** The Drizzle handle over a D1 binding, built once per binding. */
export function databaseFor(d1: D1Database): Database {
  let db = databases.get(d1);
  if (!db) {
    db = getDb(d1);
    databases.set(d1, db);
  }
  return db;
}

/** The pillar engine over an environment, built once per environment. */
export function engineFor(env: Env): PillarEngine {
  let engine = engines.get(env);
  if (!engine) {
    engine = pillarEngine(env);
    engines.set(env, engine);
  }
  return engine;
}
