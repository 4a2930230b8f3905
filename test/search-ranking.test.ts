/**
 * The ranking's rules on items made for the purpose (the demo content's are in
 * search-relevance.test.ts): how closely a query names a title (title-match.ts), and the index
 * putting the treatments, hospitals and doctors a query names before what merely mentions them,
 * however strongly, as items are added, replaced and removed.
 */
import { describe, expect, it } from 'vitest';
import type { SearchDocument } from '../server/search/documents.js';
import { SearchIndex } from '../server/search/search-index.js';
import type { Reading } from '../server/search/terms.js';
import { MATCH, nameForms, titleMatch, typedQuery } from '../server/search/title-match.js';
import type { SearchKind } from '../shared/search.js';

describe('how closely a query names a title', () => {
  it.each<[string, Reading, string, keyof typeof MATCH]>([
    ['近视激光手术', 'title', '近视激光手术', 'exact'],
    ['近视激光手术', 'title', '近视', 'prefix'],
    ['近视激光手术', 'title', '近', 'prefix'],
    ['近视激光手术', 'title', '激光', 'word'],
    ['近视激光手术', 'title', '手术 近视', 'word'],
    ['近视激光手术', 'title', '视激', 'none'],
    ['近视激光手术', 'title', '近视 白内障', 'none'],
    ['全飞秒激光手术系统', 'title', '飞秒', 'word'],
    ['上海明瞳眼科医院', 'title', '科', 'none'],
    ['上海明瞳眼科医院', 'title', '眼科 医院', 'word'],
    ['上海明瞳眼科医院', 'title', 'shanghai', 'prefix'],
    ['成都明瞳眼科医院', 'title', 'chen', 'none'],
    ['白内障', 'title', '白內障', 'exact'],
    ['白内障', 'title', 'bnz', 'exact'],
    ['超声乳化白内障手术系统', 'title', 'baineizhang', 'word'],
    ['陈立衡', 'name', '陈', 'prefix'],
    ['陈立衡', 'name', 'chen', 'prefix'],
    ['陈立衡', 'name', 'chen li', 'prefix'],
    ['陈立衡', 'name', 'chenliheng', 'exact'],
    ['陈立衡', 'name', 'clh', 'exact'],
    ['悉尼', 'word', 'xini', 'exact'],
    ['OCT 检查', 'title', 'ＯＣＴ', 'prefix'],
    ['OCT 检查', 'title', '检查', 'word'],
    ['OCT 检查', 'title', 'ct', 'none'],
  ])('%s (a %s) named by %s: %s', (title, reading, query, match) => {
    expect(titleMatch(nameForms([[title, reading]], true), typedQuery(query))).toBe(MATCH[match]);
  });

  it('an item without pinyin (an older item) is named in characters only', () => {
    const names = nameForms([['白内障', 'title']], false);
    expect(titleMatch(names, typedQuery('白内障'))).toBe(MATCH.exact);
    expect(titleMatch(names, typedQuery('baineizhang'))).toBe(MATCH.none);
  });
});

let nextId = 1;
function doc(kind: SearchKind, title: string, more: Partial<SearchDocument> = {}): SearchDocument {
  const id = nextId++;
  return {
    key: `${kind}:${id}`,
    kind,
    id,
    title,
    summary: '',
    body: '',
    isName: kind === 'expert',
    spelled: true,
    url: `/${id}`,
    meta: '',
    ...more,
  };
}

const titles = (index: SearchIndex, q: string) =>
  index.search({ q, page: 1, pageSize: 10 }).found.map((f) => `${f.doc.kind} ${f.doc.title}`);

describe('the index puts what a query names first', () => {
  const index = new SearchIndex();
  // Mentions, however strong: the query in the title, summary and body, many times.
  const loud = (kind: SearchKind, title: string, q: string) => doc(kind, title, { summary: q.repeat(5), body: q.repeat(30) });
  for (const d of [
    loud('article', '近视', '近视'),
    loud('research', '近视防控研究', '近视'),
    loud('film', '近视', '近视'),
    doc('treatment', '高度近视矫正'),
    doc('treatment', '近视激光手术'),
    doc('expert', '陈立衡', { summary: '主任医师，上海明瞳眼科医院' }),
    loud('article', '陈医生谈近视', '陈'),
    doc('hospital', '明瞳澳洲眼科医院', { aliases: ['悉尼'], summary: '悉尼' }),
    loud('article', '悉尼华人看眼科', '悉尼'),
  ])
    index.put(d);

  it('the whole title, then its beginning, then its words, then the mentions by score', () => {
    const treatment = doc('treatment', '近视');
    index.put(treatment);
    expect(titles(index, '近视').slice(0, 3)).toEqual(['treatment 近视', 'treatment 近视激光手术', 'treatment 高度近视矫正']);
    index.remove(treatment.key);
    expect(titles(index, '近视')[0]).toBe('treatment 近视激光手术');
    // Then the articles, research and films, however loud and even titled 近视 themselves: none is lifted.
    expect(titles(index, '近视').slice(2).sort()).toEqual(['article 近视', 'article 陈医生谈近视', 'film 近视', 'research 近视防控研究']);
  });

  it("a doctor's surname, in characters or pinyin, and a hospital's city, which its title does not name", () => {
    expect(titles(index, '陈')[0]).toBe('expert 陈立衡');
    expect(titles(index, 'chen')[0]).toBe('expert 陈立衡');
    expect(titles(index, '悉尼')[0]).toBe('hospital 明瞳澳洲眼科医院');
    expect(titles(index, 'xini')[0]).toBe('hospital 明瞳澳洲眼科医院');
  });

  it('an item replaced by one of another kind is ranked as its new kind, and a removed one not at all', () => {
    const device = doc('treatment', '干眼治疗仪');
    const article = loud('article', '干眼怎么办', '干眼');
    index.put(device);
    index.put(article);
    expect(titles(index, '干眼')[0]).toBe('treatment 干眼治疗仪');
    index.put({ ...device, kind: 'article' });
    expect(titles(index, '干眼')).toEqual(['article 干眼怎么办', 'article 干眼治疗仪']);
    index.remove(article.key);
    expect(titles(index, '干眼')).toEqual(['article 干眼治疗仪']);
  });
});
