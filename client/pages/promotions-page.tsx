/**
 * 企业宣传片: the group's films. Each published film plays in the page as wide as the column
 * (FilmPlayer), with its date, length and summary; the films not yet published are named once,
 * in one line that says they are coming, never shown as if they could be watched.
 */
import { FilmPlayer } from '../components/film-player.js';
import { ListBlock } from '../components/list-block.js';
import { AboutHead } from '../components/about-head.js';
import { usePageData } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';
import '../styles/about.css';

export default function PromotionsPage() {
  const promotions = usePageData<'promotions'>();
  const published = promotions.filter((p) => p.video);
  const coming = promotions.filter((p) => !p.video);
  return (
    <>
      <AboutHead />
      <section className="page-body soft" aria-labelledby="promo-title">
        <div className="container">
          <ListBlock title="品牌影像" titleId="promo-title" aside={`共 ${published.length} 部`} empty={promotions.length === 0}>
            {published.map((p, i) => (
              <article key={p.id} className="card film-card">
                <FilmPlayer video={p.video!} poster={p.poster} title={p.title} priority={i === 0} />
                <div className="card-body">
                  <p className="promo-meta">
                    {p.date ? (
                      <time className="card-date" dateTime={p.date}>
                        {p.date}
                      </time>
                    ) : null}
                    {p.duration ? <span className="promo-duration">时长 {p.duration}</span> : null}
                  </p>
                  <h3 className="film-title">
                    <Typeset text={p.title} />
                  </h3>
                  <p className="film-summary">
                    <Typeset text={p.summary} />
                  </p>
                </div>
              </article>
            ))}
            {coming.length > 0 ? (
              <p className="promo-coming">
                <span className="label">即将上线</span>
                {coming.map((p) => `《${p.title}》`).join('')}
              </p>
            ) : null}
          </ListBlock>
        </div>
      </section>
    </>
  );
}
