// Markdown files are bundled as text (wrangler.toml [[rules]]).
declare module '*.md' {
  const content: string;
  export default content;
}
