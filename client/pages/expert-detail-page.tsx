/**
 * 专家详情: an expert's profile: hospital (its page), specialty, education, the clinic days with the
 * call to book with the expert beside them (on a phone, the call stays on screen), biography and
 * achievements.
 */
import { ClinicWeek } from '../components/clinic-week.js';
import { FactList } from '../components/fact-list.js';
import { DoctorCall, HospitalLink } from '../components/hospital-link.js';
import { PageBanner } from '../components/page-banner.js';
import { RichText } from '../components/rich-text.js';
import { ContentImage, designSizes } from '../components/content-image.js';
import { usePageData } from '../router-hooks.js';
import '../styles/experts.css';

export default function ExpertDetailPage() {
  const expert = usePageData<'expertDetail'>();
  return (
    <>
      <PageBanner titleAs="p" title={expert.name} lead={`${expert.title} · ${expert.hospital}`} current={expert.name} />
      <div className="page-body soft">
        <div className="container expert-profile">
          <section className="card profile-card" aria-labelledby="expert-name">
            <ContentImage
              className="profile-avatar media"
              image={expert.avatar}
              sizes={designSizes(300, '160px')}
              largeSizes="(max-width: 500px) 160px, 300px"
              alt={expert.name}
              width={300}
              height={360}
              priority
            />
            <div className="profile-body">
              <h1 id="expert-name">
                {expert.name}
                <span className="expert-title">{expert.title}</span>
              </h1>
              <p className="expert-hospital">
                <HospitalLink name={expert.hospital} />
              </p>
              <FactList
                facts={[
                  ['擅长', expert.specialty],
                  ['教育背景', expert.education],
                ]}
              />
              <div className="profile-booking">
                {expert.schedule.length > 0 ? (
                  <div className="profile-clinics">
                    <h2 className="profile-clinics-title">出诊时间</h2>
                    <ClinicWeek schedule={expert.schedule} className="large" />
                  </div>
                ) : null}
                <DoctorCall expert={expert} className="btn btn-primary icon-phone doctor-call" />
              </div>
            </div>
          </section>
          <div className="profile-columns">
            <section className="card profile-section" aria-labelledby="expert-bio">
              <h2 id="expert-bio">个人简介</h2>
              <RichText html={expert.content} />
            </section>
            {expert.achievements.length > 0 ? (
              <section className="card profile-section" aria-labelledby="expert-achievements">
                <h2 id="expert-achievements">学术成就</h2>
                <ul className="check-list">
                  {expert.achievements.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </section>
            ) : null}
          </div>
          {/* On a phone, the call stays at the foot of the screen while the profile is read. */}
          <div className="doctor-sticky">
            <DoctorCall expert={expert} className="btn btn-primary icon-phone doctor-call" />
          </div>
        </div>
      </div>
    </>
  );
}
