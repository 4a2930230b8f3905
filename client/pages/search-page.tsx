/**
 * 搜索 (docs/product/search.md): a plain GET form that works without JavaScript, the results of the
 * words in the address by kind, each with its picture, its title and a piece of its text with the
 * matched words marked, paged; when nothing is found, says so and offers the topics and sections.
 */
import { Link } from 'react-router';
import { SEARCH_KINDS } from '../../shared/search-query.js';
import { QUERY_MAX_CHARS, SEARCH_RESULTS_MAX, type SearchAnswer, type SearchHit, type SearchKind } from '../../shared/search.js';
import { ContentImage, designSizes } from '../components/content-image.js';
import { PageBanner } from '../components/page-banner.js';
import { Pagination } from '../components/pagination.js';
import { TabRow } from '../components/section-tabs.js';
import { href, sectionHref } from '../../shared/site/href.js';
import { orEmpty } from '../../shared/site/navigation.js';
import { SECTIONS, type SectionKey } from '../../shared/site/route-table.js';
import { useLayoutData, usePageData } from '../router-hooks.js';
import { useTypesetHtml } from '../typeset/typeset-html.js';
import '../styles/search.css';

const KINDS = Object.keys(SEARCH_KINDS) as SearchKind[];

/** The search box of the page: what was asked, and a button. */
function SearchForm({ q }: { q: string }) {
  return (
    <form className="search-page-form" action={href('search')} method="get" role="search" aria-label="修改搜索">
      <label className="visually-hidden" htmlFor="search-page-q">
        搜索词
      </label>
      <input
        id="search-page-q"
        className="search-input"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={QUERY_MAX_CHARS}
        placeholder="疾病、治疗、专家或医院，如：白内障、陈立衡"
        enterKeyHint="search"
        autoComplete="off"
      />
      <button className="btn btn-primary search-submit" type="submit">
        搜索
      </button>
    </form>
  );
}

/** 全部 and each kind that has results, with its count. */
function KindFilters({ answer }: { answer: SearchAnswer }) {
  const all = KINDS.reduce((n, k) => n + answer.byKind[k], 0);
  const tabs = [
    { label: `全部 ${all}`, to: href('search', { q: answer.query }), current: answer.kind === undefined },
    ...KINDS.filter((k) => answer.byKind[k] > 0 || answer.kind === k).map((k) => ({
      label: `${SEARCH_KINDS[k]} ${answer.byKind[k]}`,
      to: href('search', { q: answer.query, kind: k }),
      current: answer.kind === k,
    })),
  ];
  return <TabRow tabs={tabs} label="按类别筛选" className="filter-tabs" linkClass="filter-link" />;
}

function Result({ hit }: { hit: SearchHit }) {
  const typesetHtml = useTypesetHtml();
  return (
    <li className="search-result">
      <ContentImage
        className="search-result-media"
        image={hit.picture}
        sizes={designSizes(160, '96px', ['(max-width: 832px) 86px', '143px'])}
        width={160}
        height={hit.kind === 'expert' ? 160 : 100}
      />
      <div className="search-result-body">
        <p className="search-result-kind">{SEARCH_KINDS[hit.kind]}</p>
        <h2 className="search-result-title">
          {/* Escaped on the server, with our own <mark> around the matched words (server/search/highlight.ts);
              typeset as text is, its marks put between characters, never inside a tag.
              The whole result is the link's target: a title can be one short word. */}
          <Link to={hit.url} className="stretched-link" dangerouslySetInnerHTML={{ __html: typesetHtml(hit.highlight.title) }} />
        </h2>
        {hit.meta ? <p className="search-result-meta">{hit.meta}</p> : null}
        {hit.highlight.snippet ? (
          <p className="search-result-snippet" dangerouslySetInnerHTML={{ __html: typesetHtml(hit.highlight.snippet) }} />
        ) : null}
      </div>
    </li>
  );
}

/** What to try instead: the featured treatments (what patients come for) and the sections. */
function Suggestions() {
  const layout = orEmpty(useLayoutData());
  const sections = (Object.keys(SECTIONS) as SectionKey[]).filter((k) => k !== 'home');
  return (
    <div className="search-suggestions">
      {layout.treatments.length > 0 ? (
        <section aria-labelledby="search-topics">
          <h2 id="search-topics" className="search-suggestions-title">
            热门主题
          </h2>
          <ul className="chip-list">
            {layout.treatments.map((t) => (
              <li key={t.id}>
                <Link className="chip" to={href('search', { q: t.title })}>
                  {t.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="search-sections">
        <h2 id="search-sections" className="search-suggestions-title">
          按栏目浏览
        </h2>
        <ul className="chip-list">
          {sections.map((k) => (
            <li key={k}>
              <Link className="chip" to={sectionHref(k)}>
                {SECTIONS[k].label}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function Results({ answer }: { answer: SearchAnswer }) {
  const shown = answer.kind ? `“${SEARCH_KINDS[answer.kind]}”中` : '';
  if (answer.total === 0) {
    return (
      <div className="search-empty" role="status">
        <h2 className="search-empty-title">{`${shown}没有找到与“${answer.query}”相关的内容`}</h2>
        <p>请换个说法再试，例如疾病名称（白内障）、治疗方式（全飞秒）、专家姓名或医院所在城市；也可以从下面的主题和栏目开始浏览。</p>
        <Suggestions />
      </div>
    );
  }
  return (
    <>
      <KindFilters answer={answer} />
      <p className="search-summary" role="status">
        {`${shown}找到 ${answer.total} 条与“${answer.query}”相关的结果${answer.partial ? '：没有同时包含全部词语的内容，以下结果包含其中部分词语' : ''}${answer.narrowed ? '。搜索词较常见，以上为最新的内容；加上更具体的词语可查找更早的文章' : ''}`}
      </p>
      <ol className="search-results">
        {answer.items.map((hit) => (
          <Result key={hit.url} hit={hit} />
        ))}
      </ol>
      <Pagination total={Math.min(answer.total, SEARCH_RESULTS_MAX)} page={answer.page} pageSize={answer.pageSize} />
    </>
  );
}

export default function SearchPage() {
  const { q, answer, refused } = usePageData<'search'>();
  return (
    <>
      <PageBanner lead="搜索科普文章、治疗与设备、专家、医院与学术研究" />
      <div className="page-body">
        <div className="container search-page">
          <SearchForm q={q} />
          {refused ? (
            <div className="search-empty" role="alert">
              <h2 className="search-empty-title">无法搜索这个内容</h2>
              <p>{`搜索词最多 ${QUERY_MAX_CHARS} 个字，且只能按页面上的类别筛选。请缩短或修改搜索词后再试。`}</p>
            </div>
          ) : answer?.query ? (
            <Results answer={answer} />
          ) : (
            <div className="search-empty">
              <h2 className="search-empty-title">想了解什么？</h2>
              <p>输入疾病、症状、治疗方式、设备、专家姓名（汉字或拼音均可）或医院所在城市。</p>
              <Suggestions />
            </div>
          )}
        </div>
      </div>
    </>
  );
}
