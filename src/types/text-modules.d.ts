// Markdown files are bundled as text (wrangler.toml [[rules]]).
declare module '*.md' {
  const content: string;
  export default content;
}

// Scalar's standalone browser bundle, served at /docs/scalar.js, is bundled as text (wrangler.toml [[rules]]).
declare module '*/api-reference/dist/browser/standalone.js' {
  const content: string;
  export default content;
}
