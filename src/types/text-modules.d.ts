/** WebAssembly modules (wrangler's default `CompiledWasm` rule): compiled at upload, instantiated at run time. */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

// Font files and the badge's base image (`*.ttf`, `*.png`: the `Data` rule in wrangler.toml) are
// declared by `wrangler types` in worker-configuration.d.ts, as ArrayBuffer.

/** harfbuzzjs 0.10: the Emscripten factory and the JavaScript API over its instance (untyped CommonJS). */
declare module 'harfbuzzjs/hb.js' {
  const createHarfBuzz: (options: {
    instantiateWasm: (
      imports: WebAssembly.Imports,
      receive: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
    ) => object;
  }) => Promise<unknown>;
  export default createHarfBuzz;
}
declare module 'harfbuzzjs/hbjs.js' {
  const hbjs: (module: unknown) => import('../services/pdf/harfbuzz').HarfBuzz;
  export default hbjs;
}
