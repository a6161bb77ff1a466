/**
 * HarfBuzz (OpenType shaping) in WebAssembly, from `harfbuzzjs` 0.10: its `hb.wasm` is imported as
 * a compiled module (wrangler's `CompiledWasm` rule; Workers may not compile WebAssembly at run
 * time) and instantiated once per isolate through Emscripten's `instantiateWasm` hook, so the
 * loader never fetches or reads a file.
 *
 * Workers also forbid creating WebAssembly functions at run time, which Emscripten's
 * `addFunction` does; harfbuzzjs uses it only for the callback that frees a blob's bytes. Blobs
 * are created once per font per isolate here, so the callback is replaced with "none" (null): the
 * font bytes then live as long as the isolate, which they do anyway.
 */
import createHarfBuzz from 'harfbuzzjs/hb.js';
import hbWasm from 'harfbuzzjs/hb.wasm';
import hbjs from 'harfbuzzjs/hbjs.js';

export type GlyphInfo = { codepoint: number; cluster: number };
export type GlyphPosition = { x_advance: number; y_advance: number; x_offset: number; y_offset: number };

export type HbBlob = { ptr: number; destroy(): void };
export type HbFace = { ptr: number; upem: number; destroy(): void };
export type HbFont = { ptr: number; setScale(x: number, y: number): void; destroy(): void };
export type HbBuffer = {
  addText(text: string): void;
  guessSegmentProperties(): void;
  setDirection(dir: 'ltr' | 'rtl' | 'ttb' | 'btt'): void;
  setScript(script: string): void;
  setLanguage(language: string): void;
  setClusterLevel(level: number): void;
  getGlyphInfos(): GlyphInfo[];
  getGlyphPositions(): GlyphPosition[];
  destroy(): void;
};
export type HarfBuzz = {
  createBlob(bytes: ArrayBuffer | Uint8Array): HbBlob;
  createFace(blob: HbBlob, index: number): HbFace;
  createFont(face: HbFace): HbFont;
  createBuffer(): HbBuffer;
  shape(font: HbFont, buffer: HbBuffer, features?: string): void;
};

let loading: Promise<HarfBuzz> | undefined;

/**
 * Emscripten's loader looks for its own file to find the .wasm beside it: `__filename` /
 * `__dirname` when `process.versions.node` is set (workerd with `nodejs_compat`), else
 * `self.location.href` when it sees `WorkerGlobalScope`. Workers have neither, so for the call
 * only (the loader reads them synchronously, before its first await) placeholders are defined,
 * and removed again before anything else can run. They are never used to load anything:
 * `instantiateWasm` supplies the module.
 */
function withScriptLocation<T>(start: () => T): T {
  const scope = globalThis as Record<string, unknown>;
  const placeholders = { __filename: '/harfbuzzjs/hb.js', __dirname: '/harfbuzzjs' };
  const added = Object.keys(placeholders).filter((name) => !(name in scope));
  for (const name of added) {
    Object.defineProperty(globalThis, name, {
      value: placeholders[name as keyof typeof placeholders],
      configurable: true,
    });
  }
  try {
    return start();
  } finally {
    for (const name of added) delete scope[name];
  }
}

/** The HarfBuzz API, instantiated on first use and kept for the isolate's life. */
export function harfBuzz(): Promise<HarfBuzz> {
  loading ??= (async () => {
    const module = (await withScriptLocation(() =>
      createHarfBuzz({
        instantiateWasm(imports, receive) {
          WebAssembly.instantiate(hbWasm, imports).then((instance) => receive(instance, hbWasm));
          return {};
        },
      }),
    )) as Record<string, unknown>;
    // The same object, not a copy: Emscripten replaces its HEAP views when the memory grows.
    module.addFunction = () => 0;
    module.removeFunction = () => undefined;
    return hbjs(module);
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
