/** Sanitised HTML from the content API (the service sanitises every `content` field), typeset (typeset/typeset-html.ts). */
import { useRichHtml } from '../typeset/typeset-html.js';

export function RichText({ html, className }: { html: string; className?: string }) {
  const richHtml = useRichHtml();
  if (!html) return null;
  return <div className={className ? `rich-text ${className}` : 'rich-text'} dangerouslySetInnerHTML={{ __html: richHtml(html) }} />;
}
