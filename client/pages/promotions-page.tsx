/**
 * 企业宣传片: the group's films. A published film plays in the page (FilmPlayer), with its
 * length; one not yet published shows its poster and says so, with no length.
 */
import { ContentImage } from '../components/content-image.js';
import { FilmPlayer } from '../components/film-player.js';
import { ListBlock } from '../components/list-block.js';
import { AboutHead } from '../components/about-head.js';
import { usePageData } from '../router-hooks.js';
import '../styles/about.css';

export default function PromotionsPage() {
  const promotions = usePageData<'promotions'>();
  const published = promotions.filter((p) => p.video).length;
  return (
    <>
      <AboutHead />
      <section className="page-body soft" aria-labelledby="promo-title">
        <div className="container">
          <ListBlock title="品牌影像" titleId="promo-title" aside={`共 ${published} 部`} empty={promotions.length === 0}>
            <ul className="promo-grid grid2">
              {promotions.map((p, i) => (
                <li key={p.id} className="card promo-card">
                  <div className="promo-poster">
                    {p.video ? (
                      <FilmPlayer video={p.video} poster={p.poster} title={p.title} />
                    ) : (
                      <>
                        <ContentImage
                          className="media"
                          image={p.poster}
                          sizes={POSTER_SIZES}
                          alt={`${p.title}海报`}
                          width={POSTER_W}
                          height={POSTER_H}
                          priority={i === 0}
                        />
                        <span className="promo-badge">即将上线</span>
                      </>
                    )}
                  </div>
                  <div className="card-body">
                    <p className="promo-meta">
                      {p.date ? (
                        <time className="card-date" dateTime={p.date}>
                          {p.date}
                        </time>
                      ) : null}
                      {p.video && p.duration ? <span className="promo-duration">时长 {p.duration}</span> : null}
                    </p>
                    <h3 className="card-title">{p.title}</h3>
                    <p className="card-text">{p.summary}</p>
                  </div>
                </li>
              ))}
            </ul>
          </ListBlock>
        </div>
      </section>
    </>
  );
}

const POSTER_W = 1280;
const POSTER_H = 720;
/** A poster's slot: a column of two, the whole width on a phone. */
const POSTER_SIZES = '(max-width: 500px) calc(100vw - 32px), 45vw';
