/** 荣誉奖项: the group's awards, newest first. */
import { CARD_LARGE_SIZES, CARD_PHONE_WIDEST, CARD_SIZES } from '../components/content-card.js';
import { ContentImage } from '../components/content-image.js';
import { ListBlock } from '../components/list-block.js';
import { AboutHead } from '../components/about-head.js';
import { usePageData } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';
import '../styles/about.css';

export default function AwardsPage() {
  const awards = usePageData<'awards'>();
  const sorted = [...awards].sort((a, b) => b.year - a.year);
  return (
    <>
      <AboutHead />
      <section className="page-body soft" aria-labelledby="awards-title">
        <div className="container">
          <ListBlock title="荣誉与奖项" titleId="awards-title" aside={`共 ${awards.length} 项`} empty={sorted.length === 0}>
            <ul className="award-grid grid3 fill">
              {sorted.map((a, i) => (
                <li key={a.id} className="card award-card">
                  <ContentImage
                    className="media"
                    image={a.image}
                    sizes={CARD_SIZES}
                    largeSizes={CARD_LARGE_SIZES}
                    phoneWidest={CARD_PHONE_WIDEST}
                    alt={a.title}
                    width={AWARD_W}
                    height={AWARD_H}
                    priority={i === 0}
                  />
                  <div className="award-body">
                    <p className="award-year">{a.year} 年</p>
                    <h3>
                      <Typeset text={a.title} />
                    </h3>
                    <p className="award-issuer">颁发单位：{a.issuer}</p>
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

const AWARD_W = 400;
const AWARD_H = 400;
