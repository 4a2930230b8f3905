/** 发展历程: a timeline of the group's milestones. */
import { AboutHead } from '../components/about-head.js';
import { SectionHead } from '../components/section-head.js';
import { usePageData } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';
import '../styles/about.css';

export default function HistoryPage() {
  const intro = usePageData<'history'>();
  const history = [...intro.history].sort((a, b) => a.year - b.year);
  return (
    <>
      <AboutHead />
      <section className="page-body soft" aria-labelledby="history-title">
        <div className="container">
          <SectionHead id="history-title" eyebrow="发展足迹" title={`${intro.name}的成长足迹`} />
          <ol className="timeline">
            {history.map((h) => (
              <li key={`${h.year}-${h.title}`} className="timeline-item">
                <p className="timeline-year">{h.year}</p>
                <div className="card timeline-card">
                  <h3>
                    <Typeset text={h.title} />
                  </h3>
                  <p>
                    <Typeset text={h.text} />
                  </p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </>
  );
}
