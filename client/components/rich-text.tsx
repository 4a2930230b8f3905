/**
 * Chinese breaks between any two characters, so a paragraph's last line may hold a single one
 * (质/量。). A word joiner (U+2060) between the last two Han characters of each block keeps them
 * together: the same effect as `text-wrap: pretty` on the last line, without its layout cost on
 * long text under a phone's CPU. The text reads and copies the same. Numbers keep their units and
 * terms stay whole (typeset), in the text between the tags only.
 */
import { typeset } from '../typeset.js';

const LAST_TWO = /(\p{Script=Han})(\p{Script=Han}[\p{P}\s]*<\/(?:p|li|dd|td|blockquote|h[1-6])>)/gu;

const keepLastCharacters = (html: string) => html.replace(LAST_TWO, '$1\u2060$2');

/** Typesets the text of an HTML fragment, never its tags. */
const typesetHtml = (html: string) =>
  html
    .split(/(<[^>]*>)/)
    .map((part, i) => (i % 2 === 0 ? typeset(part) : part))
    .join('');

/** Sanitised HTML from the content API (the service sanitises every `content` field). */
export function RichText({ html, className }: { html: string; className?: string }) {
  if (!html) return null;
  return (
    <div
      className={className ? `rich-text ${className}` : 'rich-text'}
      dangerouslySetInnerHTML={{ __html: keepLastCharacters(typesetHtml(html)) }}
    />
  );
}
