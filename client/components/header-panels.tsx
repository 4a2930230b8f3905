/** The contents of the header's hover panels (SITE.md point 4). */
import { Link } from 'react-router';
import type { PageData } from '../../shared/page-data.js';
import { categoryHref, treatmentHref } from '../../shared/links.js';
import {
  ABOUT_LINKS,
  categoriesOr,
  NEWS_CATEGORIES,
  RESEARCH_CATEGORIES,
  SERVICE_CATEGORIES,
} from './site-sections.js';

export type PanelKey = 'intro' | 'services' | 'international' | 'research' | 'news';

type Layout = PageData<'layout'>;

function PanelLinks({ links }: { links: readonly { label: string; to: string }[] }) {
  return (
    <ul className="panel-links">
      {links.map((l) => (
        <li key={l.to}>
          <Link to={l.to} className="panel-link">
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function PanelLead({ title, text }: { title: string; text?: string | undefined }) {
  return (
    <div className="panel-lead">
      <p className="panel-title">{title}</p>
      {text ? <p className="panel-text">{text}</p> : null}
    </div>
  );
}

export function PanelContent({ panel, layout }: { panel: PanelKey; layout: Layout }) {
  switch (panel) {
    case 'intro':
      return (
        <>
          <PanelLead title="集团简介" text={layout.intro?.summary} />
          <PanelLinks links={ABOUT_LINKS} />
          {layout.intro?.image ? (
            <img className="panel-figure" src={layout.intro.image} alt="" width={800} height={500} loading="lazy" decoding="async" />
          ) : null}
        </>
      );
    case 'services': {
      const categories = categoriesOr(layout.patientCategories, SERVICE_CATEGORIES);
      return (
        <>
          <PanelLinks links={categories.map((c) => ({ label: c.name, to: categoryHref(c.id, c.name) }))} />
          {layout.treatments.length > 0 ? (
            <ul className="panel-treatments">
              {layout.treatments.map((t) => (
                <li key={t.id}>
                  <Link to={treatmentHref(t.title)} className="panel-treatment">
                    <img src={t.icon} alt="" width={64} height={64} loading="lazy" decoding="async" />
                    <span>{t.title}</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      );
    }
    case 'international':
      return (
        <>
          <PanelLead
            title="国际医院"
            text="集团在澳大利亚悉尼设立国际眼科医院，中澳两地专家协同诊疗，为海外华人与国际患者提供与国际标准接轨的眼科医疗服务。"
          />
          <PanelLinks links={[{ label: '澳洲医院介绍', to: '/gjws/index' }]} />
        </>
      );
    case 'research': {
      const categories = categoriesOr(layout.researchCategories, RESEARCH_CATEGORIES);
      return (
        <>
          <PanelLead title="学术研究" text="以临床需求为导向，推动眼科诊疗技术创新与学术交流。" />
          <PanelLinks links={categories.map((c) => ({ label: c.name, to: categoryHref(c.id, c.name) }))} />
        </>
      );
    }
    case 'news': {
      const categories = categoriesOr(layout.newsCategories, NEWS_CATEGORIES);
      return (
        <>
          <PanelLead title="新闻媒体" text="集团动态、各院新闻与媒体报道。" />
          <PanelLinks links={categories.map((c) => ({ label: c.name, to: categoryHref(c.id, c.name) }))} />
        </>
      );
    }
  }
}
