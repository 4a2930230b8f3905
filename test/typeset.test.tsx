/**
 * Typesetting's rules on the server, without a browser (client/typeset/): breaks are BudouX's, less
 * those typography forbids; the markup adds no character to the text; the browser's table gives
 * hydration the server's breaks. How the lines are drawn is test/typesetting.test.ts's.
 */
import { Parser, zhHansModel } from 'budoux';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RichText } from '../client/components/rich-text.js';
import { phraseBreaks } from '../client/typeset/phrase-breaks.js';
import { PhrasesContext, type Phrases } from '../client/typeset/phrases.js';
import { PhraseTable, renderPhrases } from '../client/typeset/server-phrases.js';
import { useTypesetHtml } from '../client/typeset/typeset-html.js';
import { Typeset } from '../client/typeset/typeset.js';
import { escapeHtml } from '../shared/escape-json.js';

const budoux = new Parser(zhHansModel);

/** `text` cut at its breaks, for reading a case at a glance. */
const cut = (text: string) => {
  const at = [0, ...phraseBreaks(text), text.length];
  return at.slice(1).map((end, i) => text.slice(at[i], end));
};

/** The text of markup: tags dropped, entities read. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Text with Chinese, digits, Latin words, spaces and the punctuation of headlines. */
const headline = fc
  .array(
    fc.constantFrom(
      '明瞳',
      '眼科',
      '白内障',
      '手术',
      '是不是',
      '2031',
      '年',
      ' ',
      '18 层',
      'OCT',
      '“',
      '”',
      '（',
      '）',
      '：',
      '，',
      '——',
      '3.5',
      '万',
      '！',
      '𠮷',
    ),
    {
      maxLength: 16,
    },
  )
  .map((parts) => parts.join(''));

describe('phrase breaks', () => {
  it("are a subset of BudouX's phrase boundaries, in order", () => {
    fc.assert(
      fc.property(headline, (text) => {
        const boundaries = new Set(budoux.parseBoundaries(text));
        const breaks = phraseBreaks(text);
        expect(breaks.every((i) => boundaries.has(i))).toBe(true);
        expect([...breaks].sort((a, b) => a - b)).toEqual(breaks);
      }),
    );
  });

  it('keep words the dictionary knows, numbers and Latin words whole, a number with its unit, punctuation where it belongs', () => {
    expect(cut('孩子眼睛红，是不是得了结膜炎？')).not.toContainEqual('眼');
    expect(cut('孩子眼睛红，是不是得了结膜炎？').join('|')).toContain('是不是');
    expect(cut('为1200名患者免费做白内障手术').join('|')).not.toMatch(/白\|内障|1\|200|1200\|名/);
    expect(cut('《申城健康报》：二十年，一家眼科集团的坚守').join('|')).not.toMatch(/二\|十|十\|年|一\|家/);
    expect(cut('广州市天河区珠江新城华夏路 1288 号').join('|')).not.toMatch(/天\|河|华\|夏|\| | \|/);
    expect(cut('OCT检查与ICL晶体植入术：您需要知道的10件事').join('|')).not.toMatch(/\|：|10\|件/);
    expect(cut('周一至周日 8:00-17:30（节假日不休）').join('|')).not.toMatch(/\d\|[:\d]|:\|/);
    // A dash may start a line (browsers break before it), never be parted.
    expect(cut('验配规范——专家解读').join('|')).not.toContain('—|—');
    expect(cut('𠮷𠮷𠮷𠮷𠮷𠮷').join('')).toBe('𠮷𠮷𠮷𠮷𠮷𠮷');
    for (const piece of cut('𠮷野家眼科𠮷𠮷医院')) expect(piece).not.toMatch(/^[\udc00-\udfff]/);
  });
});

const render = (node: React.ReactNode, phrases: Phrases) => renderToStaticMarkup(<PhrasesContext value={phrases}>{node}</PhrasesContext>);

function Html({ html }: { html: string }) {
  const typesetHtml = useTypesetHtml();
  return <span dangerouslySetInnerHTML={{ __html: typesetHtml(html) }} />;
}

describe('typeset markup', () => {
  it('adds no character to the text: a title, and HTML with its own tags', () => {
    fc.assert(
      fc.property(headline, fc.nat(), (text, at) => {
        const phrases = renderPhrases(() => undefined);
        expect(textOf(render(<Typeset text={text} />, phrases))).toBe(text);
        // As a search highlight is: escaped text, a <mark> around part of it.
        const i = at % (text.length + 1);
        const html = `${escapeHtml(text.slice(0, i))}<mark>${escapeHtml(text.slice(i))}</mark>`;
        const typeset = render(<Html html={html} />, phrases);
        expect(textOf(typeset)).toBe(text);
        expect(typeset.replace(/<wbr\/?>|<\/?span[^>]*>/g, '')).toBe(html);
      }),
    );
  });

  it('draws a title as phrases with <wbr> between them, a number kept with its unit', () => {
    const html = render(
      <Typeset text="成都明瞳举办第 3 届论坛" />,
      renderPhrases(() => undefined),
    );
    expect(html).toBe(
      `<span class="phrases">${cut('成都明瞳举办第 3 届论坛').join('<wbr>').replace('3 届', '<span class="nobr">3 届</span>')}</span>`,
    );
  });

  it('sets text too long for a title, or not known to the browser yet, as running text', () => {
    const long = '眼'.repeat(401);
    expect(
      render(
        <Typeset text={long} />,
        renderPhrases(() => undefined),
      ),
    ).toBe(`<span>${long}</span>`);
    expect(render(<Typeset text="白内障手术 18 层" />, { breaks: () => undefined })).toBe(
      '<span>白内障手术 <span class="nobr">18 层</span></span>',
    );
  });

  it("sets an article's paragraphs as running text and its headings as titles", () => {
    const html = render(
      <RichText html="<h2>白内障术后护理要点</h2><p>术后第 3 天复查，注意用眼卫生与质量。</p>" />,
      renderPhrases(() => undefined),
    );
    expect(html).toContain(`<h2><span class="phrases">${cut('白内障术后护理要点').join('<wbr>')}</span></h2>`);
    expect(html).toContain('<p>术后第 <span class="nobr">3 天</span>复查，注意用眼卫生与<span class="nobr">质量。</span></p>');
  });

  it('writes the table of every text typeset, and reports a text typeset after it', () => {
    const late: string[] = [];
    const phrases = renderPhrases((text) => late.push(text));
    const html = render(
      <>
        <Typeset text="明瞳眼科二十年：同行签署合作协议" />
        <Typeset text="白内障" />
        <PhraseTable phrases={phrases} />
      </>,
      phrases,
    );
    const table = JSON.parse(/<script type="application\/json" id="__phrases">(.*)<\/script>/.exec(html)![1]!) as unknown;
    expect(table).toEqual({
      '明瞳眼科二十年：同行签署合作协议': phraseBreaks('明瞳眼科二十年：同行签署合作协议'),
      白内障: phraseBreaks('白内障'),
    });
    expect(late).toEqual([]);
    phrases.breaks('一个迟到的标题');
    expect(late).toEqual(['一个迟到的标题']);
  });
});
