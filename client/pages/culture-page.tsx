/** 企业文化: the group's introduction, figures and culture (mission, vision, values...). */
import { AboutHead } from '../components/about-head.js';
import { RichText } from '../components/rich-text.js';
import { SectionHead } from '../components/section-head.js';
import { StatsList } from '../components/stats-list.js';
import { ContentImage, designSizes } from '../components/content-image.js';
import { usePageData } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';
import '../styles/about.css';

export default function CulturePage() {
  const intro = usePageData<'culture'>();
  return (
    <>
      <AboutHead lead={intro.slogan} />
      <section className="page-body" aria-labelledby="about-intro">
        <div className="container about-intro">
          <div className="about-text">
            <p className="eyebrow">关于我们</p>
            <h2 id="about-intro">{intro.name}</h2>
            <RichText html={intro.content} />
          </div>
          <ContentImage
            className="about-image media"
            image={intro.image}
            sizes={designSizes(600, 'calc(100vw - 32px)', ['(max-width: 1056px) min(100vw - 57px, 642px)', '534px'])}
            alt={intro.name}
            width={800}
            height={500}
          />
        </div>
        {intro.stats.length > 0 ? (
          <div className="container about-stats">
            <StatsList stats={intro.stats} />
          </div>
        ) : null}
      </section>
      <section className="page-body soft" aria-labelledby="culture-values">
        <div className="container">
          <SectionHead id="culture-values" eyebrow="企业文化" title="文化理念" />
          <ul className="culture-grid grid4">
            {intro.culture.map((c) => (
              <li key={c.title} className="card culture-card">
                <ContentImage image={c.icon} sizes={designSizes(72)} width={72} height={72} />
                <h3>
                  <Typeset text={c.title} />
                </h3>
                <p>
                  <Typeset text={c.text} />
                </p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
