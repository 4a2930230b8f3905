/** Sanitised HTML from the content API (the service sanitises every `content` field). */
export function RichText({ html, className }: { html: string; className?: string }) {
  if (!html) return null;
  return <div className={className ? `rich-text ${className}` : 'rich-text'} dangerouslySetInnerHTML={{ __html: html }} />;
}
