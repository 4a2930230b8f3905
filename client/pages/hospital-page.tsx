/** 医院详情: one hospital in China: its picture and facts, opening hours, departments, doctors and news. */
import { HospitalDoctors, HospitalHero, HospitalInfo, HospitalNews } from '../components/hospital-parts.js';
import { PageBanner } from '../components/page-banner.js';
import { usePageData } from '../router-hooks.js';
import '../styles/hospitals.css';

export default function HospitalPage() {
  const view = usePageData<'hospital'>();
  const { hospital, at } = view;
  return (
    <>
      {/* The page's own heading is the hospital's name, in its card. */}
      <PageBanner titleAs="p" title={hospital.name} lead="门诊时间、交通位置、出诊专家与医院动态" current={hospital.name} />
      <div className="page-body soft">
        <div className="container hospital-page">
          <HospitalHero
            hospital={hospital}
            eyebrow={`${hospital.city} · 创立于 ${hospital.founded} 年`}
            heading="h1"
            headingId="hospital-name"
            priority
          />
          <HospitalInfo hospital={hospital} abroad={false} drawnAt={at} zoneOffset={view.zoneOffset} level={2} />
          <HospitalDoctors view={view} level={2} />
          <HospitalNews view={view} level={2} />
        </div>
      </div>
    </>
  );
}
