/** 发展历程: a timeline of the group's milestones. */
import { AboutHead } from '../components/about-head.js';
import { usePageData } from '../router-hooks.js';
import '../styles/about.css';

export default function HistoryPage() {
  const intro = usePageData<'history'>();
  const history = [...intro.history].sort((a, b) => a.year - b.year);
  return (
    <>
      <AboutHead lead={intro.slogan} />
      <section className="page-body soft" aria-labelledby="history-title">
        <div className="container">
          <div className="section-head">
            <p className="eyebrow">发展足迹</p>
            <h2 id="history-title">{intro.name}的成长足迹</h2>
          </div>
          <ol className="timeline">
            {history.map((h) => (
              <li key={`${h.year}-${h.title}`} className="timeline-item">
                <p className="timeline-year">{h.year}</p>
                <div className="card timeline-card">
                  <h3>{h.title}</h3>
                  <p>{h.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </>
  );
}
