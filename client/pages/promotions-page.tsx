/** 企业宣传片: the group's films, shown as cards (poster, duration, date); no video is published yet. */
import { imageLoading } from '../components/content-card.js';
import { ListBlock } from '../components/list-block.js';
import { AboutHead } from '../components/about-head.js';
import { usePageData } from '../router-hooks.js';
import '../styles/about.css';

export default function PromotionsPage() {
  const promotions = usePageData<'promotions'>();
  return (
    <>
      <AboutHead />
      <section className="page-body soft" aria-labelledby="promo-title">
        <div className="container">
          <ListBlock title="品牌影像" titleId="promo-title" aside={`共 ${promotions.length} 部`} empty={promotions.length === 0}>
            <ul className="promo-grid grid2">
              {promotions.map((p, i) => (
                <li key={p.id} className="card promo-card">
                  <div className="promo-poster">
                    <img
                      className="media"
                      src={p.poster}
                      alt={`${p.title}海报`}
                      width={POSTER_W}
                      height={POSTER_H}
                      {...imageLoading(i === 0)}
                    />
                    <span className="promo-duration">
                      <span className="sr-only">时长 </span>
                      {p.duration}
                    </span>
                  </div>
                  <div className="card-body">
                    <time className="card-date" dateTime={p.date}>
                      {p.date}
                    </time>
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
