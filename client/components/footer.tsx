/** The site footer (SPEC.md point 2): section links, the group's address and phone, copyright. */
import { Link } from 'react-router';
import { CATEGORY } from '../../shared/constants.js';
import { categoryHref, telHref } from '../../shared/links.js';
import { useLayoutData } from '../page-data-hooks.js';
import { FactList } from './fact-list.js';
import { ABOUT_LINKS, categoriesOr, orEmpty, SERVICE_CATEGORIES } from './site-sections.js';

interface FooterColumn {
  title: string;
  links: { label: string; to: string }[];
}

/** The footer categories of SPEC.md point 9 (15, 16, 19, 20, 21) and 17, 18, with their SITE.md point 5 names. */
const ACADEMIC_LINKS = [
  { label: '科研创新', to: categoryHref(CATEGORY.researchInnovation, '科研创新') },
  { label: '学术交流', to: categoryHref(CATEGORY.academicExchange, '学术交流') },
  { label: '教育新闻', to: categoryHref(CATEGORY.educationNews, '教育新闻') },
  { label: '科研新闻', to: categoryHref(CATEGORY.researchNews, '科研新闻') },
];
const NEWS_LINKS = [
  { label: '集团新闻', to: categoryHref(CATEGORY.groupNews, '集团新闻') },
  { label: '医院新闻', to: categoryHref(CATEGORY.hospitalNews, '医院新闻') },
  { label: '媒体报道', to: categoryHref(CATEGORY.mediaReports, '媒体报道') },
];

export function Footer() {
  const layout = orEmpty(useLayoutData());
  const { contact, intro } = layout;
  const groupName = contact?.groupName ?? intro?.name;
  const services = categoriesOr(layout.patientCategories, SERVICE_CATEGORIES);

  const columns: FooterColumn[] = [
    { title: '集团简介', links: [...ABOUT_LINKS] },
    { title: '患者服务', links: services.map((c) => ({ label: c.name, to: categoryHref(c.id, c.name) })) },
    {
      title: '医院与专家',
      links: [
        { label: '国内医院', to: '/gnyy/index' },
        { label: '国际医院', to: '/gjws/index' },
        { label: '专家团队', to: '/zjxz/index' },
        { label: '联系我们', to: '/lxwm/index' },
      ],
    },
    { title: '学术研究', links: ACADEMIC_LINKS },
    { title: '新闻媒体', links: NEWS_LINKS },
  ];

  return (
    <footer className="site-footer">
      <div className="container footer-main">
        <div className="footer-brand">
          {groupName ? <p className="footer-name">{groupName}</p> : null}
          {intro?.slogan ? <p className="footer-slogan">{intro.slogan}</p> : null}
          {contact ? (
            <FactList
              className="footer-contact"
              facts={[
                [
                  '咨询电话',
                  <a className="footer-phone" href={telHref(contact.phone)}>
                    {contact.phone}
                  </a>,
                ],
                ['集团地址', contact.address],
                ['服务时间', contact.hours],
              ]}
            />
          ) : null}
        </div>
        <nav className="footer-nav" aria-label="页脚导航">
          {columns.map((col) => (
            <div className="footer-col" key={col.title}>
              <p className="footer-col-title">{col.title}</p>
              <ul>
                {col.links.map((l) => (
                  <li key={l.label}>
                    <Link to={l.to}>{l.label}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="footer-bottom">
        <div className="container">
          <p>
            © 2004-2024 {groupName ? `${groupName} ` : ''}版权所有
          </p>
          <p className="footer-note">本网站内容仅供参考，具体诊疗请遵医嘱。</p>
        </div>
      </div>
    </footer>
  );
}
