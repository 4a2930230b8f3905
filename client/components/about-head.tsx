/** The top of every 集团简介 page: the page's banner, then the section's tabs with the current one marked. */
import { PageBanner } from './page-banner.js';
import { SectionTabs } from './section-tabs.js';

export function AboutHead({ lead }: { lead?: string | undefined }) {
  return (
    <>
      <PageBanner lead={lead} />
      <SectionTabs />
    </>
  );
}
