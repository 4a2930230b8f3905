/** The top of every 集团简介 page: the page's banner, then the section's tabs with the current one marked. */
import { useLocation } from 'react-router';
import { PageBanner } from './page-banner.js';
import { SectionTabs } from './section-tabs.js';
import { aboutTabs } from './site-sections.js';

export function AboutHead({ title, lead }: { title: string; lead: string }) {
  const { pathname } = useLocation();
  return (
    <>
      <PageBanner title={title} lead={lead} trail={[{ label: '集团简介', to: '/jtjj/qywh' }]} />
      <SectionTabs tabs={aboutTabs(pathname)} label="集团简介栏目" />
    </>
  );
}
