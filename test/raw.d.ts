/** A file's text (Vite's `?raw` import), e.g. a static script under public/ that a test reads. */
declare module '*?raw' {
  const text: string;
  export default text;
}
