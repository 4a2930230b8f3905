/** 专家详情: an expert's profile, education, achievements, clinic schedule and biography. */
import { Link } from 'react-router';
import { bookingHref } from '../../shared/site/href.js';
import { FactList } from '../components/fact-list.js';
import { PageBanner } from '../components/page-banner.js';
import { RichText } from '../components/rich-text.js';
import { ContentImage, designSizes } from '../components/content-image.js';
import { usePageData } from '../router-hooks.js';
import '../styles/experts.css';

/** One titled list of the profile (the clinic schedule, the achievements); nothing when it is empty. */
function ProfileList({ id, title, items, listClass }: { id: string; title: string; items: string[]; listClass: string }) {
  if (items.length === 0) return null;
  return (
    <section className="card profile-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className={listClass}>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  );
}

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
              <p className="expert-hospital">{expert.hospital}</p>
              <FactList
                facts={[
                  ['擅长', expert.specialty],
                  ['教育背景', expert.education],
                ]}
              />
              <Link to={bookingHref()} className="btn btn-primary">
                预约咨询
              </Link>
            </div>
          </section>
          <div className="profile-columns">
            <section className="card profile-section" aria-labelledby="expert-bio">
              <h2 id="expert-bio">个人简介</h2>
              <RichText html={expert.content} />
            </section>
            <div className="profile-side">
              <ProfileList id="expert-schedule" title="出诊时间" items={expert.schedule} listClass="schedule-list" />
              <ProfileList id="expert-achievements" title="学术成就" items={expert.achievements} listClass="check-list" />
            </div>
          </div>
        </div>
      </div>
    </>
  );
}
